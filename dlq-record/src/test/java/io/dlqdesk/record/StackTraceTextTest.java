package io.dlqdesk.record;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StackTraceTextTest {

    private static List<String> classes(String trace) {
        return StackTraceText.chain(trace == null ? null : trace.getBytes(StandardCharsets.UTF_8), 100, 100).stream()
                .map(StackTraceText.Thrown::exceptionClass).toList();
    }

    @Test
    void theTopAndEveryUnindentedCauseInOrder() {
        assertThat(classes("a.B: top\r\n\tat x.Y(Y.java:1)\r\nCaused by: c.D: middle\r\n\t... 3 more\r\nCaused by: e.F\r\n"))
                .containsExactly("a.B", "c.D", "e.F");
    }

    @Test
    void aCausesMessageIsItsLinesRest() {
        StackTraceText.Thrown cause = StackTraceText.chain("a.B: top\nCaused by: c.D: why: because\n".getBytes(StandardCharsets.UTF_8), 100, 100)
                .get(1);

        assertThat(new String(cause.message(), StandardCharsets.UTF_8)).isEqualTo("why: because");
        assertThat(StackTraceText.chain("a.B\n".getBytes(StandardCharsets.UTF_8), 100, 100).get(0).message()).isNull();
    }

    @Test
    void linesThatNameNoClassEndTheChain() {
        assertThat(classes("a.B: x\nCaused by: [CIRCULAR REFERENCE: a.B: x]\nCaused by: c.D: after\n")).containsExactly("a.B");
        assertThat(classes("\tat x.Y(Y.java:1)\nCaused by: c.D\n")).as("no exception on the first line").isEmpty();
        assertThat(classes("a." + "b".repeat(200) + ": too long a name\n")).isEmpty();
        assertThat(classes("")).isEmpty();
        assertThat(classes(null)).isEmpty();
    }
}
