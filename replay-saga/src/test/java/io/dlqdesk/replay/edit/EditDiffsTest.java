package io.dlqdesk.replay.edit;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.edit.EditDiff;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EditDiffsTest {

    private static final Headers NO_HEADERS = new RecordHeaders();

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static EditDiff values(String before, String after) {
        return EditDiffs.between(utf8(before), utf8(after), NO_HEADERS, NO_HEADERS);
    }

    @Test
    void jsonValuesAreComparedByPathWithAddedRemovedAndChangedMembersAndArrayElements() {
        EditDiff diff = values("{\"a\":1,\"b\":{\"c\":[1,2,3],\"d/e\":\"x\"},\"gone\":true}", "{\"a\":2,\"b\":{\"c\":[1,5],\"d/e\":\"x\",\"f~\":null}}");
        assertThat(diff.valueKind()).isEqualTo(EditDiff.Kind.JSON);
        assertThat(diff.value()).containsExactly(
                new EditDiff.Change("/a", "1", "2"),
                new EditDiff.Change("/b/c/1", "2", "5"),
                new EditDiff.Change("/b/c/2", "3", null),
                new EditDiff.Change("/b/f~0", null, "null"),
                new EditDiff.Change("/gone", "true", null));
        assertThat(diff.headers()).isEmpty();
    }

    @Test
    void equalJsonWrittenDifferentlyIsNoChangeAndATypeChangeIsOneChangeAtItsPath() {
        assertThat(values("{\"a\": 1, \"b\": [true]}", "{\"b\":[true],\"a\":1}").changesNothing()).isTrue();
        assertThat(values("{\"a\":{\"x\":1}}", "{\"a\":[1]}").value()).containsExactly(new EditDiff.Change("/a", "{\"x\":1}", "[1]"));
        assertThat(values("[1]", "{}").value()).containsExactly(new EditDiff.Change("", "[1]", "{}"));
    }

    @Test
    void textThatIsNotJsonIsOneRangeOfCharactersAndBinaryOneRangeOfBytesInHex() {
        EditDiff text = values("amount=10;currency=EUR", "amount=12;currency=EUR");
        assertThat(text.valueKind()).isEqualTo(EditDiff.Kind.TEXT);
        assertThat(text.value()).containsExactly(new EditDiff.Change("chars 8..9", "0", "2"));
        // JSON before, not after: compared as text; text with control characters (other than tab and line breaks) as bytes
        assertThat(values("{\"a\":1}", "{\"a\":1").valueKind()).isEqualTo(EditDiff.Kind.TEXT);
        assertThat(values("a\tb\r\nc", "a\tb\r\nd").valueKind()).isEqualTo(EditDiff.Kind.TEXT);
        assertThat(values("a\u0001b", "a\u0001c").value()).containsExactly(new EditDiff.Change("bytes 2..3", "62", "63"));

        EditDiff bytes = EditDiffs.between(new byte[] {0, 1, (byte) 0xff, 3}, new byte[] {0, 7, 7, 3}, NO_HEADERS, NO_HEADERS);
        assertThat(bytes.valueKind()).isEqualTo(EditDiff.Kind.BYTES);
        assertThat(bytes.value()).containsExactly(new EditDiff.Change("bytes 1..3", "01ff", "0707"));
        assertThat(EditDiffs.between(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xff}, NO_HEADERS, NO_HEADERS).changesNothing()).isTrue();
    }

    @Test
    void aTextChangeNeverSplitsASurrogatePair() {
        EditDiff diff = values("a\uD83D\uDE00b", "a\uD83D\uDE01b");
        assertThat(diff.value()).containsExactly(new EditDiff.Change("chars 1..3", "\uD83D\uDE00", "\uD83D\uDE01"));
    }

    @Test
    void headersAreComparedByNameAndPositionAndKeptHeadersAreNoChange() {
        Headers source = new RecordHeaders().add("tenant", utf8("eu")).add("tag", utf8("a")).add("tag", utf8("b"))
                .add("bin", new byte[] {1, 2});
        Headers edited = new RecordHeaders().add("tag", utf8("a")).add("tenant", utf8("de")).add("bin", new byte[] {1, 2})
                .add("flag", null);
        EditDiff diff = EditDiffs.between(utf8("x"), utf8("x"), source, edited);
        assertThat(diff.value()).isEmpty();
        assertThat(diff.headers()).containsExactly(
                new EditDiff.Change("tenant[0]", "eu", "de"),
                new EditDiff.Change("tag[1]", "b", null),
                new EditDiff.Change("flag[0]", null, "(no value)"));
        // an edit that keeps the record's headers
        assertThat(EditDiffs.between(utf8("x"), utf8("y"), source, new EditedContent(utf8("y"), null).replacing(source)).headers()).isEmpty();
        assertThat(EditDiffs.shown(new byte[] {1, 2})).isEqualTo("0x0102");
    }

    @Test
    void aDiffLargerThanTheBoundIsRefusedWholeNeverCut() {
        String big = "x".repeat(EditDiff.MAX_CHARS);
        assertThatThrownBy(() -> values("{\"a\":\"\"}", "{\"a\":\"" + big + "\"}")).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("more than " + EditDiff.MAX_CHARS);
        assertThat(values("{\"a\":\"\"}", "{\"a\":\"" + big.substring(0, EditDiff.MAX_CHARS - 20) + "\"}").value()).hasSize(1);
    }
}
