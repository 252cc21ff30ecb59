package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * An operator asks to replay the incident's original record. Carries the facts the application
 * read back from the source topic, the topic's replay policy, the runtime switch and this
 * deployment's ledger name; {@code requestedBy.at()} is "now" for the deadline check. {@code keyFreshness} is what the
 * staleness check found; {@code overrideStaleKey} is the operator's decision to replay even so (the reason says why).
 * {@code edit} names the approved edit to publish instead of the record's value and headers (null: the record as it is).
 * Answered with a {@link ReplayOutcome}; a refusal is recorded as {@link ReplayRejected}, not thrown.
 */
public record RequestReplayCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        SourceRecordFacts source,
        ReplayPolicy policy,
        boolean switchOn,
        String ledgerName,
        OperatorAction requestedBy,
        KeyFreshness keyFreshness,
        boolean overrideStaleKey,
        Integer edit) {

    public RequestReplayCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policy, "policy");
        CommandArguments.requireName(ledgerName);
        Objects.requireNonNull(requestedBy, "requestedBy");
        Objects.requireNonNull(keyFreshness, "keyFreshness");
    }

    /** The same request naming {@code edit} (null: none). */
    public RequestReplayCommand withEdit(Integer edit) {
        return new RequestReplayCommand(incidentId, source, policy, switchOn, ledgerName, requestedBy, keyFreshness, overrideStaleKey, edit);
    }

    /** A request for the record as it is. */
    public RequestReplayCommand(IncidentId incidentId, SourceRecordFacts source, ReplayPolicy policy, boolean switchOn, String ledgerName,
                                OperatorAction requestedBy, KeyFreshness keyFreshness, boolean overrideStaleKey) {
        this(incidentId, source, policy, switchOn, ledgerName, requestedBy, keyFreshness, overrideStaleKey, null);
    }

    /** A request about a topic the staleness check does not cover. */
    public RequestReplayCommand(IncidentId incidentId, SourceRecordFacts source, ReplayPolicy policy, boolean switchOn, String ledgerName,
                                OperatorAction requestedBy) {
        this(incidentId, source, policy, switchOn, ledgerName, requestedBy, KeyFreshness.notChecked("not configured"), false);
    }
}
