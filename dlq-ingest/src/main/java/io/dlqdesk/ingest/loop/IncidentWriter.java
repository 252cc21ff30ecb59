package io.dlqdesk.ingest.loop;

import io.dlqdesk.domain.FailureKeyTakenException;
import io.dlqdesk.domain.RetryFailureNotCorrelatedException;
import io.dlqdesk.domain.api.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.api.CorrelationMismatch;
import io.dlqdesk.domain.api.FailedRecord;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.OpenIncidentCommand;
import io.dlqdesk.domain.api.ReplayHeaders;
import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Turns one classified DLQ record into exactly one durable outcome: a failure of an incident
 * (opened, or a correlated re-failure), a duplicate delivery counted on the incident it repeats, a
 * separate incident that records why it is not the failure it claims (mismatched correlation, or a
 * failure key already taken by other content: then keyed by its DLQ record), or a quarantine row.
 * Every outcome is idempotent per DLQ record, so reading it again after a crash or a rebalance
 * changes nothing. Exceptions that escape mean "not written"; the caller tries again.
 */
public class IncidentWriter implements RecordHandler {

    private static final Logger log = LoggerFactory.getLogger(IncidentWriter.class);

    private final CommandGateway commands;
    private final TransactionTemplate transactions;
    private final QuarantineStore quarantine;
    private final Duration replayWindow;
    private final String ledgerName;
    private final Clock clock;

    public IncidentWriter(CommandGateway commands, TransactionTemplate transactions, QuarantineStore quarantine, Duration replayWindow,
                          String ledgerName, Clock clock) {
        this.commands = commands;
        this.transactions = transactions;
        this.quarantine = quarantine;
        this.replayWindow = replayWindow;
        this.ledgerName = ledgerName;
        this.clock = clock;
    }

    @Override
    public void handle(ConsumerRecord<byte[], byte[]> record, Classification classification) {
        if (classification instanceof Classification.Malformed malformed) {
            quarantine.quarantine(record, malformed.reason());
        } else if (classification instanceof Classification.Failure failure) {
            open(OpenIncidentCommand.forFailure(failure.failure(), replayWindow, clock.instant()));
        } else if (classification instanceof Classification.RetryFailure retry) {
            correlate(retry.failure(), retry.headers());
        }
        // NotOurs: nothing to store
    }

    /**
     * First failures in one transaction: each command's unit of work joins it, so the batch costs one
     * commit. Anything else, or any failure, and the caller falls back to one by one.
     */
    @Override
    public void handleAll(List<Classified> records) {
        if (!records.stream().allMatch(classified -> classified.classification() instanceof Classification.Failure)) {
            throw new IllegalArgumentException("only first failures are written in batches");
        }
        transactions.executeWithoutResult(status -> records.forEach(classified -> handle(classified.record(), classified.classification())));
    }

    private void correlate(FailedRecord failure, ReplayHeaders headers) {
        IncidentId root;
        try {
            root = IncidentId.parse(headers.rootIncidentId() == null ? "" : headers.rootIncidentId());
        } catch (IllegalArgumentException e) {
            openSeparately(failure, headers, List.of(CorrelationMismatch.ROOT_INCIDENT_MISMATCH));
            return;
        }
        try {
            commands.sendAndWait(new CorrelateRetryFailureCommand(root, failure, headers, ledgerName, clock.instant()));
        } catch (AggregateNotFoundException e) {
            openSeparately(failure, headers, List.of(CorrelationMismatch.ROOT_INCIDENT_MISMATCH));
        } catch (RetryFailureNotCorrelatedException e) {
            log.info("re-failure {} from DLQ {} does not correlate to {}: {}; opening a separate incident", failure.failureKey(),
                    failure.dlqLocation(), root, e.mismatches());
            openSeparately(failure, headers, e.mismatches());
        }
    }

    private void openSeparately(FailedRecord failure, ReplayHeaders headers, List<CorrelationMismatch> mismatches) {
        open(OpenIncidentCommand.forUncorrelatedRetryFailure(failure, replayWindow, clock.instant(), mismatches, headers));
    }

    /** Opens the incident; when its failure key is taken by other content, opens it keyed by its DLQ record instead. */
    private void open(OpenIncidentCommand command) {
        try {
            commands.sendAndWait(command);
        } catch (FailureKeyTakenException e) {
            OpenIncidentCommand separate = command.keyedByDlqRecord();
            log.info("DLQ record {} claims failure {} of incident {} with other content; opening it as {}",
                    command.failure().dlqLocation(), command.failureKey(), e.incidentId(), separate.incidentId());
            commands.sendAndWait(separate);
        }
    }
}
