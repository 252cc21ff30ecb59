package io.dlqdesk.replay.outbox;

/** A due row locked for the claiming transaction, and whether its replay deadline had passed by the database clock then. */
public record ClaimedRow(OutboxRow row, boolean pastDeadline) {
}
