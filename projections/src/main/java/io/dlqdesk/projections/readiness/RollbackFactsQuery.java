package io.dlqdesk.projections.readiness;

/** The rollback facts as they stand ({@link RollbackFactsReader#read()}). */
public record RollbackFactsQuery() {
}
