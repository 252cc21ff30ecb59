package io.dlqdesk.ingest.loop;

import io.dlqdesk.commandbatch.CommandBatch;
import io.dlqdesk.domain.FailureKeyTakenException;
import io.dlqdesk.domain.RetryFailureNotCorrelatedException;
import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OpenNewIncidentCommand;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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
    private final CommandBatch batch;
    private final StoredIncidents storedIncidents;
    private final QuarantineStore quarantine;
    private final Duration replayWindow;
    private final String ledgerName;
    private final Clock clock;

    public IncidentWriter(CommandGateway commands, TransactionManager transactionManager, StoredIncidents storedIncidents,
                          QuarantineStore quarantine, Duration replayWindow, String ledgerName, Clock clock) {
        this.commands = commands;
        this.batch = new CommandBatch(transactionManager);
        this.storedIncidents = storedIncidents;
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
     * First failures and re-failures as one unit of work in one transaction: each command runs nested in it, so their
     * events are appended together (one batched insert) and the batch costs one commit. Incidents the store does not
     * hold yet (one read for the batch) are created without a load; the other first failures go the usual way (a
     * duplicate delivery, a failure key taken), and each re-failure is correlated to its root exactly as on its own (a
     * mismatch opens a separate incident in the same batch). Commands run in the order of the incident they address,
     * since each aggregate stays locked until the batch ends: every writer takes them in the same order. Any failure
     * that escapes rolls the whole batch back and the caller writes the records one by one.
     */
    @Override
    public void handleAll(List<Classified> records) throws Exception {
        Instant now = clock.instant();
        List<BatchedWrite> writes = records.stream().map(classified -> batched(classified.classification(), now))
                .sorted(Comparator.comparing(BatchedWrite::addressed))
                .toList();
        Set<IncidentId> stored = storedIncidents.existing(writes.stream().map(BatchedWrite::opens).filter(Objects::nonNull)
                .map(OpenIncidentCommand::incidentId).distinct().toList());
        Set<IncidentId> created = new HashSet<>();
        batch.inOneUnit(() -> {
            for (BatchedWrite write : writes) {
                OpenIncidentCommand open = write.opens();
                if (open == null) {
                    correlate(write.refailure().failure(), write.refailure().headers());
                } else if (!stored.contains(open.incidentId()) && created.add(open.incidentId())) {
                    commands.sendAndWait(new OpenNewIncidentCommand(open));
                } else {
                    open(open);
                }
            }
            return null;
        });
    }

    /** One record of a batch: a first failure's command, or a re-failure; {@code addressed} is the incident it names first (the lock order). */
    private record BatchedWrite(String addressed, OpenIncidentCommand opens, Classification.RetryFailure refailure) {
    }

    private BatchedWrite batched(Classification classification, Instant now) {
        if (classification instanceof Classification.Failure failure) {
            OpenIncidentCommand open = OpenIncidentCommand.forFailure(failure.failure(), replayWindow, now);
            return new BatchedWrite(open.incidentId().value(), open, null);
        }
        if (classification instanceof Classification.RetryFailure retry) {
            String root = retry.headers().rootIncidentId();
            return new BatchedWrite(root == null ? "" : root, null, retry);
        }
        throw new IllegalArgumentException("only first failures and re-failures are written in batches, not " + classification);
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

    /**
     * Opens the incident; when its failure key is taken by other content, opens it keyed by its DLQ record instead. When
     * another writer created the incident at the same moment, the command is sent again: now it finds the incident
     * (a redelivery, or a failure key taken), which is what the record is, not a failure of it.
     */
    private void open(OpenIncidentCommand command) {
        try {
            openOrRecord(command);
        } catch (FailureKeyTakenException e) {
            OpenIncidentCommand separate = command.keyedByDlqRecord();
            log.info("DLQ record {} claims failure {} of incident {} with other content; opening it as {}",
                    command.failure().dlqLocation(), command.failureKey(), e.incidentId(), separate.incidentId());
            commands.sendAndWait(separate);
        }
    }

    private void openOrRecord(OpenIncidentCommand command) {
        try {
            commands.sendAndWait(command);
        } catch (AggregateStreamCreationException e) {
            log.debug("incident {} was created concurrently; its DLQ record {} is recorded on it", command.incidentId(),
                    command.failure().dlqLocation());
            commands.sendAndWait(command);
        }
    }
}
