package io.dlqdesk.replay.request;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.MarkPublishUnknownCommand;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import io.dlqdesk.replay.source.PartitionEndReader;
import org.apache.kafka.common.TopicPartition;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Ends an attempt whose outbox row is gone as PUBLISH_UNKNOWN (an admin's decision). The row's place is
 * taken first, so that a saga writing it later cannot publish the attempt any more; if the decision cannot
 * be recorded the place is given back. The end offset of the target partition, read once the place is
 * taken, bounds where a replay of the attempt that went out earlier can lie (the rollback check needs it).
 */
public class PublishUnknownMarker {

    private final ReplayOutbox outbox;
    private final PartitionEndReader ends;
    private final CommandGateway commands;
    private final TransactionTemplate transactions;

    /** Where the incident's replays go (its original partition); empty when that is not known. */
    @FunctionalInterface
    public interface TargetPartition {
        Optional<TopicPartition> find();
    }

    public PublishUnknownMarker(ReplayOutbox outbox, PartitionEndReader ends, CommandGateway commands, TransactionTemplate transactions) {
        this.outbox = outbox;
        this.ends = ends;
        this.commands = commands;
        this.transactions = transactions;
    }

    /**
     * Records the decision on the incident, which refuses it when the row was there (a row that exists gets its
     * result the normal way) or the attempt is not waiting for one. The row's place is taken and the decision stored in
     * one transaction: a crash between them, or a refusal, leaves neither, so the attempt can always be marked again.
     */
    public void mark(IncidentId incidentId, int attempt, OperatorAction decidedBy, TargetPartition target) {
        if (attempt < 1) {
            throw new InvalidValueException("attempts are numbered from 1, was " + attempt);
        }
        transactions.executeWithoutResult(status -> {
            boolean taken = outbox.abandonIfAbsent(incidentId, attempt);
            Long endOffset = taken ? endOffset(target) : null; // read after the place is taken: no replay of it can come later
            commands.sendAndWait(new MarkPublishUnknownCommand(incidentId, attempt, taken, decidedBy, endOffset));
        });
    }

    /** Null when the partition or its end offset cannot be read: the rollback check then fails closed on it. */
    private Long endOffset(TargetPartition target) {
        return target.find()
                .map(partition -> ends.endOffset(partition.topic(), partition.partition()))
                .filter(OptionalLong::isPresent)
                .map(OptionalLong::getAsLong)
                .orElse(null);
    }
}
