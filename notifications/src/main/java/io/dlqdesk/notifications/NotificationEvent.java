package io.dlqdesk.notifications;

import java.util.Locale;

/** What a webhook can be told about; configured and sent by its {@link #wireName()} ({@code incident-reopened}, …). */
public enum NotificationEvent {
    /** A closed incident failed again: the fix did not work. */
    INCIDENT_REOPENED("DLQ incident reopened"),
    /** A failure of a kind (exception class + normalised message) not seen before. */
    NEW_EXCEPTION_GROUP("New exception group"),
    /** A bulk replay job stopped itself: after its canary, or too many of its replays failed again. */
    REPLAY_JOB_PAUSED("Replay job paused"),
    /** An instance's DLQ ingest turned not ready (not polling, no broker, or records waiting and none written). */
    INGEST_STALLED("DLQ ingest stalled"),
    /** That instance's ingest is ready again, or the instance is gone and a live one ends its stall. */
    INGEST_RECOVERED("DLQ ingest recovered"),
    /** An event processor could not handle an event after its retries and parked it: retry or evict it. */
    EVENT_PARKED("Event parked");

    private final String title;

    NotificationEvent(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
