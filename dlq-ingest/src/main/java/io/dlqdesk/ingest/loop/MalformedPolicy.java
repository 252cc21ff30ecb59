package io.dlqdesk.ingest.loop;

/** What the loop does with a DLQ record that can never become an incident. */
public enum MalformedPolicy {
    /** Keep it in the quarantine table, then move on: the partition keeps flowing. */
    QUARANTINE,
    /** Pause that partition at the record and commit nothing past it; every other partition keeps flowing. */
    PAUSE_PARTITION
}
