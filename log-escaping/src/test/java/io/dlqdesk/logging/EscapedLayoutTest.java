package io.dlqdesk.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.read.ListAppender;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.PatternLayout;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EscapedLayoutTest {

    private static final String FORGED = "billing\r\n2026-12-06T10:00:00.000Z  INFO 1 --- [main] i.d.app.Audit : admin resolved every incident";

    @Test
    void controlCharactersAreEscapedAndEverythingElseIsKept() {
        assertThat(LogEscaping.escape("a\nb\rc\u0000d\u001B[31me\u0085f\u2028g\th\\i")).isEqualTo(
                "a\\nb\\rc\\u0000d\\u001B[31me\\u0085f\\u2028g\th\\\\i");
        assertThat(LogEscaping.escape("inc-1e49 ünïcødé ✓ 🚀")).isEqualTo("inc-1e49 ünïcødé ✓ 🚀");
        assertThat(LogEscaping.escape(null)).isNull();
    }

    @Test
    void aMessageOrAnExceptionMessageFromOutsideStaysOnItsLine() throws Exception {
        String output = layout("%escapedMessage%n%escapedException").doLayout(event(
                "re-failure of {} did not correlate", new IllegalArgumentException("consumerGroup: " + FORGED,
                        new IllegalStateException(FORGED)), FORGED));

        List<String> lines = Arrays.asList(output.split("\\R"));
        assertThat(lines.get(0)).startsWith("re-failure of billing\\r\\n2026-12-06T10:00:00.000Z").endsWith("did not correlate");
        assertThat(lines).noneMatch(line -> line.startsWith("2026-12-06T10:00:00.000Z"));
        assertThat(lines).filteredOn(line -> line.contains("IllegalArgumentException")).singleElement().asString()
                .contains("consumerGroup: billing\\r\\n2026");
        assertThat(lines).anyMatch(line -> line.startsWith("Caused by: java.lang.IllegalStateException: billing\\r\\n"));
        assertThat(lines).anyMatch(line -> line.trim().startsWith("at io.dlqdesk.logging.EscapedLayoutTest"));
    }

    @Test
    void withoutTheEscapingTheSameEventForgesALine() {
        String output = layout("%msg%n%ex").doLayout(event("re-failure of {} did not correlate", null, FORGED));

        assertThat(output.split("\\R")).anyMatch(line -> line.startsWith("2026-12-06T10:00:00.000Z"));
    }

    @Test
    void theSharedDefaultsGiveTheConsolePatternBothConverters() throws Exception {
        LoggerContext context = new LoggerContext();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(new ByteArrayInputStream(("<configuration><include resource=\"io/dlqdesk/logging/escaped-defaults.xml\"/>"
                + "<property scope=\"context\" name=\"SEEN_CONSOLE\" value=\"${CONSOLE_LOG_PATTERN}\"/>"
                + "<property scope=\"context\" name=\"SEEN_FILE\" value=\"${FILE_LOG_PATTERN}\"/></configuration>")
                .getBytes(StandardCharsets.UTF_8)));

        assertThat(context.getProperty("SEEN_CONSOLE")).contains("%escapedMessage%n%escapedException").doesNotContain("%m%n");
        assertThat(context.getProperty("SEEN_FILE")).contains("%escapedMessage%n%escapedException").doesNotContain("%m%n");
    }

    private static PatternLayout layout(String pattern) {
        LoggerContext context = new LoggerContext();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("escapedMessage", EscapedMessageConverter::new);
        layout.getInstanceConverterMap().put("escapedException", EscapedThrowableConverter::new);
        layout.setPattern(pattern);
        layout.start();
        return layout;
    }

    private static ILoggingEvent event(String message, Throwable throwable, Object argument) {
        LoggerContext context = new LoggerContext();
        Logger logger = context.getLogger("test");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.setContext(context);
        events.start();
        logger.addAppender(events);
        logger.setLevel(Level.INFO);
        if (throwable == null) {
            logger.info(message, argument);
        } else {
            logger.info(message, argument, throwable);
        }
        return events.list.get(0);
    }
}
