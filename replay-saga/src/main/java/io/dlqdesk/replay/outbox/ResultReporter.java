package io.dlqdesk.replay.outbox;

import io.dlqdesk.commandbatch.CommandBatch;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.List;

/**
 * Reports a round's decided results to their incidents, after the round committed: all in one unit of work
 * (each command nested in it, their events appended together, one commit), in incident id order since each
 * incident stays locked until the unit ends and every batch writer takes them in that order. If that fails as a
 * whole, one by one. A result that is not recorded is sent again by the saga's reconciliation deadline.
 */
public class ResultReporter {

    private static final Logger log = LoggerFactory.getLogger(ResultReporter.class);

    private final CommandGateway commands;
    private final CommandBatch units;

    public ResultReporter(CommandGateway commands, TransactionManager transactions) {
        this.commands = commands;
        this.units = new CommandBatch(transactions);
    }

    public void report(List<OutboxPoller.Decided> decided) {
        List<RecordPublishResultCommand> results = decided.stream()
                .map(result -> new RecordPublishResultCommand(result.row().incidentId(), result.row().attempt(), result.result()))
                .sorted(Comparator.comparing((RecordPublishResultCommand command) -> command.incidentId().value())
                        .thenComparingInt(RecordPublishResultCommand::attempt))
                .toList();
        units.togetherElseOneByOne(results, commands::sendAndWait,
                e -> log.info("{} replay results not recorded together ({}); recording them one by one", results.size(), e.toString()),
                result -> {
                    alone(result);
                    return null;
                });
    }

    private void alone(RecordPublishResultCommand result) {
        commands.send(result).whenComplete((ignored, error) -> {
            if (error != null) {
                log.warn("result of replay {} not recorded yet (reconciliation will retry): {}",
                        result.incidentId().replayId(result.attempt()), error.toString());
            }
        });
    }
}
