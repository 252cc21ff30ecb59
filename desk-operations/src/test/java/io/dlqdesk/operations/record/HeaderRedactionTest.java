package io.dlqdesk.operations.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HeaderRedactionTest {

    private final HeaderRedaction redaction = new HeaderRedaction(List.of("authorization", "X-Api-Key"), new ObjectMapper());

    @Test
    void deniedNamesLoseTheirValueInAnyCaseAndOthersKeepIt() {
        String redacted = redaction.redactHeadersJson("[{\"key\":\"AUTHORIZATION\",\"value\":\"c2VjcmV0\"},"
                + "{\"key\":\"x-api-key\",\"value\":\"a2V5\"},{\"key\":\"traceparent\",\"value\":\"MDA=\"}]");
        assertThat(redacted).isEqualTo("[{\"key\":\"AUTHORIZATION\",\"value\":\"[redacted]\"},"
                + "{\"key\":\"x-api-key\",\"value\":\"[redacted]\"},{\"key\":\"traceparent\",\"value\":\"MDA=\"}]");
    }

    @Test
    void somethingThatIsNotAHeaderListIsWithheldRatherThanShown() {
        assertThat(redaction.redactHeadersJson("{\"authorization\":\"c2VjcmV0\"}")).isEqualTo("[]");
        assertThat(redaction.redactHeadersJson("not json")).isEqualTo("[]");
        assertThat(redaction.redactHeadersJson(null)).isNull();
    }
}
