package io.dlqdesk.testsupport;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import java.util.List;

/** What a test's {@link ListAppender} caught so far. */
public final class LoggedEvents {

    private LoggedEvents() {
    }

    /**
     * A copy taken under the appender's own lock: the service's threads go on logging into its list while a test reads
     * it, and iterating the list itself then fails with a ConcurrentModificationException.
     */
    public static List<ILoggingEvent> snapshot(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) { // AppenderBase.doAppend holds this lock while it appends
            return List.copyOf(appender.list);
        }
    }
}
