package io.dlqdesk.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %escapedMessage}: the formatted message, escaped ({@link LogEscaping}). */
public class EscapedMessageConverter extends MessageConverter {

    @Override
    public String convert(ILoggingEvent event) {
        return LogEscaping.escape(super.convert(event));
    }
}
