package io.dlqdesk.domain;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayConsumptionWaived;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationCheck;
import io.dlqdesk.domain.correlation.CorrelationFacts;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.correlation.RecordedAttempt;
import io.dlqdesk.domain.correlation.RecordedReplay;
import io.dlqdesk.domain.edit.AppliedEdit;
import io.dlqdesk.domain.edit.ApproveReplayEditCommand;
import io.dlqdesk.domain.edit.ProposeReplayEditCommand;
import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.DiscardIncidentCommand;
import io.dlqdesk.domain.incident.FailureRecording;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OpenNewIncidentCommand;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.EvaluateReplayCommand;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.MarkPublishUnknownCommand;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.domain.replay.ReplayCondition;
import io.dlqdesk.domain.replay.ReplayFacts;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.WaiveReplayConsumptionCommand;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * The Incident aggregate: one failed record (the root) and the re-failures of its replays.
 * One piece, though over 300 lines: its rules decide on one state, the consistency boundary its handlers build.
 * Event-sourced: command handlers decide from the facts the command brings (no clock, no Kafka),
 * event-sourcing handlers only assign. Registered with Axon by the application's wiring, so this
 * module stays free of Spring.
 */
public class Incident {

    @AggregateIdentifier
    private IncidentId incidentId;
    private FailedRecord root;
    private IncidentStatus status;
    private Instant replayDeadline;
    /** Root and correlated failures with what they carried: a redelivery is equal by content, never by key alone. */
    private final Map<FailureKey, DeliveredContent> knownFailures = new HashMap<>();
    /** Every DLQ record this incident took a failure or a duplicate delivery from: reading one again adds nothing. */
    private final Set<RecordLocation> dlqRecords = new HashSet<>();
    /** Correlated re-failures in arrival order; the last one is the claim target. */
    private final List<FailureKey> correlated = new ArrayList<>();
    /** Attempt n is at index n - 1. */
    private final List<Attempt> attempts = new ArrayList<>();
    /** Edit n is at index n - 1. */
    private final List<Edit> edits = new ArrayList<>();
    /** The latest recorded refusal since the last replay requested: a repeat of it within the window is not recorded again. */
    private ReplayRejected lastRefusal;

    /** Edits one incident may have: each is a stored copy of a record, and a long list is a process gone wrong. */
    public static final int MAX_EDITS = 20;

    /** One proposed edit as the incident remembers it. */
    private record Edit(AppliedEdit applied, String proposer, boolean approved) {
    }

    /** How long the same refusal to the same principal is not recorded again. */
    public static final Duration REPEATED_REFUSAL_WINDOW = Duration.ofMinutes(1);

    protected Incident() {
        // required by Axon to rebuild from events and to create on OpenIncidentCommand
    }

    /**
     * Created here, or found existing: the id is derived from the failure, so an existing incident
     * means the failure was delivered before (a duplicate delivery, an outcome) or another record claims
     * its key (refused with {@link FailureKeyTakenException}, so the caller keeps it elsewhere). Telling
     * the two apart needs the stored failure, hence create-if-missing rather than a creating constructor;
     * ingest sends {@link OpenNewIncidentCommand} instead when it knows the incident is not stored.
     */
    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    FailureRecording handle(OpenIncidentCommand command) {
        if (incidentId != null) {
            return deliveredAgain(command.failure(), command.replayHeaders(), command.detectedAt())
                    .orElseThrow(() -> new FailureKeyTakenException(incidentId, command.failureKey()));
        }
        opened(command);
        return FailureRecording.OPENED;
    }

    /** Created without a load: the caller checked the id is not in the store, and the store's unique key holds if it was wrong. */
    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.ALWAYS)
    void handle(OpenNewIncidentCommand command) {
        opened(command.open());
    }

    private void opened(OpenIncidentCommand command) {
        var timestamp = command.failure().originalTimestamp();
        Instant deadline = timestamp == null ? null : timestamp.instant().plus(command.replayWindow());
        apply(new IncidentOpened(command.incidentId(), command.failure(), command.detectedAt(), deadline,
                command.correlationMismatches(), command.replayHeaders()));
    }

    /**
     * When the failure is one this incident has, equal by content: a new DLQ record of it is counted, the
     * same DLQ record read again (ingest's at-least-once) adds nothing. Empty for any other failure.
     */
    private Optional<FailureRecording> deliveredAgain(FailedRecord failure, ReplayHeaders headers, Instant detectedAt) {
        DeliveredContent known = knownFailures.get(failure.failureKey());
        if (known == null || !known.equals(DeliveredContent.of(failure, headers))) {
            return Optional.empty();
        }
        if (dlqRecords.contains(failure.dlqLocation())) {
            return Optional.of(FailureRecording.ALREADY_RECORDED);
        }
        apply(new DuplicateDeliveryRecorded(incidentId, failure.failureKey(), failure.dlqLocation(), detectedAt));
        return Optional.of(FailureRecording.DUPLICATE_DELIVERY);
    }

    /**
     * Never throws for a refusal: it is recorded as ReplayRejected and returned, so it stays in the
     * history — once: the same refusal asked again by the same principal within
     * {@link #REPEATED_REFUSAL_WINDOW} is answered the same but adds no event (a caller repeating a
     * refused request cannot grow the event store without bound).
     */
    @CommandHandler
    ReplayOutcome handle(RequestReplayCommand command) {
        List<ReplayRefusal> refusals = ReplayCondition.failedFor(replayFacts(command));
        if (!refusals.isEmpty()) {
            if (!repeatsLastRefusal(refusals, command.requestedBy())) {
                apply(new ReplayRejected(incidentId, refusals, command.requestedBy(), checked(command.keyFreshness())));
            }
            return ReplayOutcome.rejected(refusals, checked(command.keyFreshness()));
        }
        int attempt = attempts.size() + 1;
        // the publisher gives up at the earlier of the window's end and the source record's deletion by its topic's retention
        Instant retentionEnd = command.source().retentionEnd();
        Instant deadline = retentionEnd != null && retentionEnd.isBefore(replayDeadline) ? retentionEnd : replayDeadline;
        KeyFreshness freshness = command.keyFreshness();
        boolean overridden = command.overrideStaleKey() && freshness.state() != KeyFreshness.State.FRESH
                && freshness.state() != KeyFreshness.State.NOT_CHECKED;
        AppliedEdit edit = command.edit() == null ? null : edits.get(command.edit() - 1).applied();
        apply(ReplayRequested.of(incidentId, attempt, claimedFailure(), root, deadline, command.ledgerName(), command.requestedBy(),
                checked(freshness), overridden, edit));
        return ReplayOutcome.requested(attempt);
    }

    /** What the staleness check found, when it ran: an unchecked topic adds nothing to the stored events. */
    private static KeyFreshness checked(KeyFreshness freshness) {
        return freshness.state() == KeyFreshness.State.NOT_CHECKED ? null : freshness;
    }

    /** The dry run: the conditions a request with these facts would fail, in the same order; nothing is applied. */
    @CommandHandler
    List<ReplayRefusal> handle(EvaluateReplayCommand command) {
        return ReplayCondition.failedFor(replayFacts(command.request()));
    }

    private boolean repeatsLastRefusal(List<ReplayRefusal> refusals, OperatorAction by) {
        return lastRefusal != null && lastRefusal.reasons().equals(refusals)
                && lastRefusal.requestedBy().principal().equals(by.principal())
                && !by.at().isBefore(lastRefusal.requestedBy().at())
                && by.at().isBefore(lastRefusal.requestedBy().at().plus(REPEATED_REFUSAL_WINDOW));
    }

    @CommandHandler
    void handle(RecordPublishResultCommand command) {
        Attempt attempt = attempt(command.attempt());
        if (attempt.status() == PublishStatus.REQUESTED) {
            apply(new PublishResultRecorded(incidentId, attempt.number(), attempt.claimedFailure(), command.result()));
        } else if (!command.result().equals(attempt.result())) {
            throw refused(IncidentErrorCode.PUBLISH_ALREADY_DECIDED,
                    "attempt " + attempt.number() + " is already " + attempt.status());
        }
        // else: the same result reported again (at-least-once reporting): nothing new
    }

    @CommandHandler
    void handle(MarkPublishUnknownCommand command) {
        Attempt attempt = attempt(command.attempt());
        if (attempt.status() != PublishStatus.REQUESTED) {
            throw refused(IncidentErrorCode.PUBLISH_NOT_REQUESTED, "attempt " + attempt.number() + " is " + attempt.status());
        }
        if (!command.outboxRowConfirmedAbsent()) {
            throw refused(IncidentErrorCode.OUTBOX_ROW_NOT_CONFIRMED_ABSENT,
                    "a row that exists will get its result; confirm it is gone first");
        }
        apply(new PublishMarkedUnknown(incidentId, attempt.number(), attempt.claimedFailure(), command.markedBy(), command.endOffsetAtDecision()));
    }

    /** Only once the attempt is decided: a REQUESTED one is the other conditions' to wait for. */
    @CommandHandler
    void handle(WaiveReplayConsumptionCommand command) {
        Attempt attempt = attempt(command.attempt());
        if (attempt.status() == PublishStatus.REQUESTED) {
            throw refused(IncidentErrorCode.ATTEMPT_NOT_DECIDED, "attempt " + attempt.number() + " is still REQUESTED");
        }
        if (attempt.consumptionWaived()) {
            throw refused(IncidentErrorCode.ALREADY_WAIVED, "the consumption of attempt " + attempt.number() + " was waived already");
        }
        apply(new ReplayConsumptionWaived(incidentId, attempt.number(), command.waivedBy()));
    }

    /** Throws RetryFailureNotCorrelatedException (with every failed check) rather than lose or misfile the record. */
    @CommandHandler
    FailureRecording handle(CorrelateRetryFailureCommand command) {
        FailedRecord failure = command.failure();
        Optional<FailureRecording> again = deliveredAgain(failure, command.headers(), command.detectedAt());
        if (again.isPresent()) {
            return again.get();
        }
        CorrelationFacts facts = new CorrelationFacts(failure, command.headers(), command.ledgerName(), recordedReplay());
        List<CorrelationMismatch> mismatches = new ArrayList<>(CorrelationCheck.mismatches(facts));
        if (knownFailures.containsKey(failure.failureKey())) { // same key, other content: it cannot be that failure
            mismatches.add(CorrelationMismatch.FAILURE_KEY_TAKEN);
        }
        if (!mismatches.isEmpty()) {
            throw new RetryFailureNotCorrelatedException(incidentId, failure.failureKey(), mismatches);
        }
        IncidentStatus before = status;
        apply(new RetryFailureCorrelated(incidentId, failure, facts.namedAttempt().orElseThrow().attempt(),
                command.detectedAt(), replayDeadline, command.headers(), CorrelationCheck.skipped(facts)));
        if (closed(before)) {
            apply(new IncidentReopened(incidentId, failure.failureKey(), before, command.detectedAt()));
        }
        return FailureRecording.CORRELATED;
    }

    @CommandHandler
    void handle(AcknowledgeIncidentCommand command) {
        if (status != IncidentStatus.OPEN) {
            throw refused(IncidentErrorCode.NOT_OPEN, "only an OPEN incident can be acknowledged, it is " + status);
        }
        apply(new IncidentAcknowledged(incidentId, command.action()));
    }

    @CommandHandler
    void handle(ResolveIncidentCommand command) {
        requireClosable();
        apply(new IncidentResolved(incidentId, command.action()));
    }

    @CommandHandler
    void handle(DiscardIncidentCommand command) {
        requireClosable();
        apply(new IncidentDiscarded(incidentId, command.action()));
    }

    private void requireClosable() {
        if (status != IncidentStatus.ACKED) {
            throw refused(IncidentErrorCode.NOT_ACKNOWLEDGED, "only an ACKED incident can be closed, it is " + status);
        }
        if (anyAttemptRequested()) {
            throw refused(IncidentErrorCode.REPLAY_IN_FLIGHT,
                    "a replay is REQUESTED; wait for its result or mark it PUBLISH_UNKNOWN");
        }
    }

    private ReplayFacts replayFacts(RequestReplayCommand command) {
        return ReplayFacts.of(status, root, replayDeadline, new ReplayFacts.AttemptsSoFar(attempts.size(), anyAttemptRequested(),
                claimedStatus()), command, requestedEdit(command.edit()));
    }

    private ReplayFacts.RequestedEdit requestedEdit(Integer number) {
        if (number == null) {
            return ReplayFacts.RequestedEdit.NONE;
        }
        if (number < 1 || number > edits.size()) {
            return ReplayFacts.RequestedEdit.UNKNOWN;
        }
        return edits.get(number - 1).approved() ? ReplayFacts.RequestedEdit.APPROVED : ReplayFacts.RequestedEdit.NOT_APPROVED;
    }

    /**
     * Records a proposed edit of the source record; replayable once a second person approves it. An edit that changes
     * nothing, or the event id (its replay would be another record to consumers' deduplication and to correlation), is
     * refused, and so is one past {@link #MAX_EDITS} or on a closed incident.
     */
    @CommandHandler
    int handle(ProposeReplayEditCommand command) {
        if (closed(status)) {
            throw refused(IncidentErrorCode.INCIDENT_CLOSED, "the incident is " + status + "; reopened incidents take edits again");
        }
        if (command.diff().changesNothing()) {
            throw refused(IncidentErrorCode.EDIT_CHANGES_NOTHING, "the edited value and headers are the source record's");
        }
        if (!Objects.equals(command.editedEventId(), root.eventId())) {
            throw refused(IncidentErrorCode.EDIT_CHANGES_EVENT_ID, "the edited record's event id is " + command.editedEventId()
                    + ", the record's is " + root.eventId() + "; keep it, so that consumers deduplicate the replay and its re-failure correlates");
        }
        if (edits.size() >= MAX_EDITS) {
            throw refused(IncidentErrorCode.TOO_MANY_EDITS, "the incident has " + edits.size() + " edits, the most it may have");
        }
        int number = edits.size() + 1;
        apply(new ReplayEditProposed(incidentId, number, command.editedValueHash(), command.contentHash(), command.editedValueBytes(),
                command.diff(), command.proposedBy()));
        return number;
    }

    @CommandHandler
    void handle(ApproveReplayEditCommand command) {
        if (command.edit() < 1 || command.edit() > edits.size()) {
            throw refused(IncidentErrorCode.UNKNOWN_EDIT, "no edit " + command.edit() + ", there are " + edits.size());
        }
        Edit edit = edits.get(command.edit() - 1);
        if (edit.approved()) {
            throw refused(IncidentErrorCode.EDIT_ALREADY_APPROVED, "edit " + command.edit() + " is approved already");
        }
        if (edit.proposer().equals(command.approvedBy().principal())) {
            throw refused(IncidentErrorCode.APPROVER_IS_PROPOSER, command.approvedBy().principal() + " proposed edit " + command.edit()
                    + "; a second person approves it");
        }
        apply(new ReplayEditApproved(incidentId, command.edit(), command.approvedBy()));
    }

    private RecordedReplay recordedReplay() {
        List<RecordedAttempt> recorded = attempts.stream()
                .map(attempt -> new RecordedAttempt(attempt.number(), attempt.targetGroup(), attempt.valueHash()))
                .toList();
        return new RecordedReplay(incidentId, root.failureKey().topic(), root.eventId(), root.key(),
                root.originalTimestamp(), recorded);
    }

    /** The claim rule: the latest correlated re-failure, else the root. */
    private FailureKey claimedFailure() {
        return correlated.isEmpty() ? root.failureKey() : correlated.get(correlated.size() - 1);
    }

    private PublishStatus claimedStatus() {
        FailureKey claimed = claimedFailure();
        for (int i = attempts.size() - 1; i >= 0; i--) {
            if (attempts.get(i).claimedFailure().equals(claimed)) {
                return attempts.get(i).status();
            }
        }
        return PublishStatus.NONE;
    }

    private boolean anyAttemptRequested() {
        return attempts.stream().anyMatch(attempt -> attempt.status() == PublishStatus.REQUESTED);
    }

    private Attempt attempt(int number) {
        if (number > attempts.size()) {
            throw refused(IncidentErrorCode.UNKNOWN_ATTEMPT, "no attempt " + number + ", there are " + attempts.size());
        }
        return attempts.get(number - 1);
    }

    private static boolean closed(IncidentStatus status) {
        return status == IncidentStatus.RESOLVED || status == IncidentStatus.DISCARDED;
    }

    private IncidentCommandRefusedException refused(IncidentErrorCode code, String detail) {
        return new IncidentCommandRefusedException(incidentId, code, detail);
    }

    @EventSourcingHandler
    void on(IncidentOpened event) {
        this.incidentId = event.incidentId();
        this.root = event.failure();
        this.status = IncidentStatus.OPEN;
        this.replayDeadline = event.replayDeadline();
        this.knownFailures.put(event.failureKey(), DeliveredContent.of(event.failure(), event.replayHeaders()));
        this.dlqRecords.add(event.failure().dlqLocation());
    }

    @EventSourcingHandler
    void on(ReplayRejected event) {
        this.lastRefusal = event;
    }

    @EventSourcingHandler
    void on(ReplayRequested event) {
        this.lastRefusal = null;
        // a re-failure carries what was published: an edit's value, not the source record's
        attempts.add(new Attempt(event.attempt(), event.claimedFailure(), event.targetGroup(), event.publishedValueHash(),
                PublishStatus.REQUESTED, null));
    }

    @EventSourcingHandler
    void on(ReplayEditProposed event) {
        edits.add(new Edit(new AppliedEdit(event.edit(), event.editedValueHash(), event.contentHash()), event.proposedBy().principal(), false));
    }

    @EventSourcingHandler
    void on(ReplayEditApproved event) {
        Edit edit = edits.get(event.edit() - 1);
        edits.set(event.edit() - 1, new Edit(edit.applied(), edit.proposer(), true));
    }

    @EventSourcingHandler
    void on(PublishResultRecorded event) {
        attempts.set(event.attempt() - 1, attempts.get(event.attempt() - 1).decided(event.result().status(), event.result()));
    }

    @EventSourcingHandler
    void on(PublishMarkedUnknown event) {
        attempts.set(event.attempt() - 1, attempts.get(event.attempt() - 1).decided(PublishStatus.PUBLISH_UNKNOWN, null));
    }

    @EventSourcingHandler
    void on(ReplayConsumptionWaived event) {
        attempts.set(event.attempt() - 1, attempts.get(event.attempt() - 1).waived());
    }

    @EventSourcingHandler
    void on(RetryFailureCorrelated event) {
        knownFailures.put(event.failure().failureKey(), DeliveredContent.of(event.failure(), event.headers()));
        dlqRecords.add(event.failure().dlqLocation());
        correlated.add(event.failure().failureKey());
    }

    @EventSourcingHandler
    void on(DuplicateDeliveryRecorded event) {
        dlqRecords.add(event.dlqLocation());
    }

    @EventSourcingHandler
    void on(IncidentReopened event) {
        this.status = IncidentStatus.OPEN;
    }

    @EventSourcingHandler
    void on(IncidentAcknowledged event) {
        this.status = IncidentStatus.ACKED;
    }

    @EventSourcingHandler
    void on(IncidentResolved event) {
        this.status = IncidentStatus.RESOLVED;
    }

    @EventSourcingHandler
    void on(IncidentDiscarded event) {
        this.status = IncidentStatus.DISCARDED;
    }
}
