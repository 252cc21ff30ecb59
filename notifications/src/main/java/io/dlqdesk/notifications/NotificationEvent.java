package io.dlqdesk.notifications;

import java.util.Locale;

/** What a webhook can be told about; configured and sent by its {@link #wireName()} ({@code incident-reopened}, …). */
public enum NotificationEvent {
    /** A closed incident failed again: the fix did not work. */
    INCIDENT_REOPENED("DLQ incident reopened", "reopened incidents"),
    /** A failure of a kind (exception class + normalised message) not seen before. */
    NEW_EXCEPTION_GROUP("New exception group", "new exception groups"),
    /** A bulk replay job stopped itself: after its canary, or too many of its replays failed again. */
    REPLAY_JOB_PAUSED("Replay job paused", "paused replay jobs"),
    /** An instance's DLQ ingest turned not ready (not polling, no broker, or records waiting and none written). */
    INGEST_STALLED("DLQ ingest stalled", "ingest stalls"),
    /** That instance's ingest is ready again, or the instance is gone and a live one ends its stall. */
    INGEST_RECOVERED("DLQ ingest recovered", "ingest recoveries"),
    /** An event processor could not handle an event after its retries and parked it: retry or evict it. */
    EVENT_PARKED("Event parked", "parked events");

    private final String title;
    private final String many;

    NotificationEvent(String title, String many) {
        this.title = title;
        this.many = many;
    }

    public String title() {
        return title;
    }

    /** What several are called in a sentence: "37 new exception groups". */
    public String many() {
        return many;
    }

    public static NotificationEvent ofWireName(String wireName) {
        for (NotificationEvent event : values()) {
            if (event.wireName().equals(wireName)) {
                return event;
            }
        }
        throw new IllegalArgumentException("no notification event is called '" + wireName + "'");
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
