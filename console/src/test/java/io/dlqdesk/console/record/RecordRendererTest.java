package io.dlqdesk.console.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.operations.record.HeaderRedaction;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecordRendererTest {

    private static final int LIMIT = 1024;
    private final RecordRenderer renderer = new RecordRenderer(LIMIT, new HeaderRedaction(List.of("authorization"), new ObjectMapper()));

    @Test
    void validUtf8IsShownAsTheTextItIsMarkupIncluded() {
        ShownBytes shown = renderer.show(utf8("price <script>alert(1)</script> für 12 €"));
        assertThat(shown.kind()).isEqualTo(ShownBytes.Kind.TEXT);
        assertThat(shown.shown()).isEqualTo("price <script>alert(1)</script> für 12 €");
        assertThat(shown.size()).isEqualTo(utf8("price <script>alert(1)</script> für 12 €").length);
        assertThat(shown.truncated()).isFalse();
    }

    @Test
    void oneJsonDocumentIsPrettyPrintedAndAnythingElseJsonLikeStaysText() {
        ShownBytes json = renderer.show(utf8("{\"order\":42,\"items\":[1,2]}"));
        assertThat(json.kind()).isEqualTo(ShownBytes.Kind.JSON);
        assertThat(json.shown()).contains("\"order\" : 42", "\n");
        assertThat(renderer.show(utf8("{\"a\":1} trailing")).kind()).isEqualTo(ShownBytes.Kind.TEXT);
        assertThat(renderer.show(utf8("{\"a\":1,\"a\":2}")).kind()).as("a duplicated key is not one meaning").isEqualTo(ShownBytes.Kind.TEXT);
        assertThat(renderer.show(utf8("42")).kind()).isEqualTo(ShownBytes.Kind.TEXT);
    }

    @Test
    void bytesThatAreNotTextAreShownAsHexWithTheirPrintableCharacters() {
        ShownBytes shown = renderer.show(new byte[] {0x00, (byte) 0xff, 0x3c, 0x41});
        assertThat(shown.kind()).isEqualTo(ShownBytes.Kind.HEX);
        assertThat(shown.shown()).startsWith("00000000  00 ff 3c 41").contains("|..<A|");
        assertThat(renderer.show(utf8("line\u0007bell")).kind()).as("a control character").isEqualTo(ShownBytes.Kind.HEX);
        assertThat(renderer.show(utf8("tab\tand\r\nbreaks")).kind()).isEqualTo(ShownBytes.Kind.TEXT);
    }

    @Test
    void aLongValueIsCutAtTheLimitWithItsSizeSaidAndACharacterIsNeverSplit() {
        byte[] value = utf8("€".repeat(400)); // 1,200 bytes: the limit falls inside a character
        ShownBytes shown = renderer.show(value);
        assertThat(shown.truncated()).isTrue();
        assertThat(shown.size()).isEqualTo(1200);
        assertThat(shown.kind()).isEqualTo(ShownBytes.Kind.TEXT);
        assertThat(shown.shown()).isEqualTo("€".repeat(341)); // 1,023 of the 1,024 bytes: whole characters only
        assertThat(renderer.show(utf8("x".repeat(LIMIT))).truncated()).isFalse();
        assertThat(renderer.show(utf8("x".repeat(LIMIT + 1))).truncated()).isTrue();
        ShownBytes cutJson = renderer.show(utf8("{\"a\":\"" + "x".repeat(LIMIT) + "\"}"));
        assertThat(cutJson.kind()).as("a cut document is shown as the text it starts with").isEqualTo(ShownBytes.Kind.TEXT);
    }

    @Test
    void aPrefixTheDatabaseCutIsShownWithTheFullSize() {
        ShownBytes shown = renderer.show(utf8("abc"), 5_000_000);
        assertThat(shown.truncated()).isTrue();
        assertThat(shown.size()).isEqualTo(5_000_000);
        assertThat(shown.shown()).isEqualTo("abc");
    }

    @Test
    void noKeyAndTombstonesAreNone() {
        assertThat(renderer.show(null)).isEqualTo(ShownBytes.NONE);
        assertThat(renderer.show(new byte[0]).kind()).as("an empty key is a key").isEqualTo(ShownBytes.Kind.TEXT);
    }

    @Test
    void deniedHeadersAreWithheldIgnoringCaseAndTheExceptionHeadersAreShownApart() {
        ShownRecord record = renderer.record("orders.dlq", 0, 7, 1_764_400_000_000L, utf8("k"), List.of(
                new RecordRenderer.Header("Authorization", utf8("Bearer secret")),
                new RecordRenderer.Header("kafka_dlt-exception-fqcn", utf8("org.springframework.kafka.listener.ListenerExecutionFailedException")),
                new RecordRenderer.Header("kafka_dlt-exception-cause-fqcn", utf8("com.example.PriceMissing")),
                new RecordRenderer.Header("kafka_dlt-exception-message", utf8("no price <b>")),
                new RecordRenderer.Header("kafka_dlt-exception-stacktrace", utf8("com.example.PriceMissing: no price\n\tat X.y(X.java:1)")),
                new RecordRenderer.Header("kafka_dlt-original-offset", new byte[] {0, 0, 0, 0, 0, 0, 0, 7})), utf8("{}"));
        assertThat(record.headers().get(0).redacted()).isTrue();
        assertThat(record.headers().get(0).value()).isEqualTo(ShownBytes.NONE);
        assertThat(record.headers()).extracting(ShownHeader::name).contains("Authorization", "kafka_dlt-original-offset");
        assertThat(record.headers().get(5).value().kind()).isEqualTo(ShownBytes.Kind.HEX);
        assertThat(record.exceptionClass()).as("the cause, not Spring's wrapper").isEqualTo("com.example.PriceMissing");
        assertThat(record.exceptionMessage()).isEqualTo("no price <b>");
        assertThat(record.stackTrace()).contains("\tat X.y(X.java:1)");
        assertThat(record.timestamp()).hasToString("2025-11-29T07:06:40Z");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
