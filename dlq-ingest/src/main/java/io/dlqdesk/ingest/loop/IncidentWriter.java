package io.dlqdesk.ingest.loop;

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
 * Turns one classified DLQ record into its durable effect: an incident opened, a re-failure
 * correlated (or, when it does not correlate, a separate incident that records why), or a
 * quarantine row. Every effect is idempotent, so a record redelivered after a crash or a rebalance
 * changes nothing. Exceptions that escape are transient (the caller retries); a re-failure that
 * does not correlate is not one of them.
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
            openSeparately(failure, List.of(CorrelationMismatch.ROOT_INCIDENT_MISMATCH));
            return;
        }
        try {
            commands.sendAndWait(new CorrelateRetryFailureCommand(root, failure, headers, ledgerName, clock.instant()));
        } catch (AggregateNotFoundException e) {
            openSeparately(failure, List.of(CorrelationMismatch.ROOT_INCIDENT_MISMATCH));
        } catch (RetryFailureNotCorrelatedException e) {
            log.info("re-failure {} does not correlate to {}: {}; opening a separate incident", failure.failureKey(), root, e.mismatches());
            openSeparately(failure, e.mismatches());
        }
    }

    private void openSeparately(FailedRecord failure, List<CorrelationMismatch> mismatches) {
        open(OpenIncidentCommand.forUncorrelatedRetryFailure(failure, replayWindow, clock.instant(), mismatches));
    }

    private void open(OpenIncidentCommand command) {
        commands.sendAndWait(command);
    }
}
