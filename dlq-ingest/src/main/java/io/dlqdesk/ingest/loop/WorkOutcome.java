package io.dlqdesk.ingest.loop;

/**
 * What a worker reports to the loop thread once a record has left its slot with a result. Abandoned
 * work (its assignment ended, or the workers stopped) reports nothing: its record comes again.
 */
sealed interface WorkOutcome {

    Work work();

    /** Written: an incident, a correlated re-failure, or a quarantine row. The record is complete. */
    record Completed(Work work) implements WorkOutcome {
    }

    /** Cannot be written for a reason of its own: hold its partition at it (pause-partition policy). */
    record Held(Work work, String reason) implements WorkOutcome {
    }
}
