package io.dlqdesk.replay.job;

import io.dlqdesk.commandbatch.CommandBatch;
import io.dlqdesk.domain.job.ClaimJobReplayCommand;
import io.dlqdesk.domain.job.RecordJobReplayCommand;
import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Sends a round's commands for one job in one unit of work: the job is loaded once, every command nested in it, their
 * events appended together in one commit. A refusal answers that command alone; if the unit fails as a whole (another
 * instance changed the job at the same moment), each is sent again in a unit of its own, where such a conflict is retried.
 */
public class JobCommands {

    private static final Logger log = LoggerFactory.getLogger(JobCommands.class);

    /** How one command ended: its result, or the job's refusal, or another failure. */
    record Answer(Object result, ReplayJobCommandRefusedException refused, RuntimeException failed) {

        boolean ok() {
            return refused == null && failed == null;
        }
    }

    /** An incident to claim on its job and, if the job takes the claim, to ask with {@code request}. */
    record Ask(ClaimJobReplayCommand claim, RequestReplayCommand request) {
    }

    private final CommandGateway commands;
    private final CommandBatch units;

    public JobCommands(CommandGateway commands, TransactionManager transactions) {
        this.commands = commands;
        this.units = new CommandBatch(transactions);
    }

    /** The answers, in the order of {@code batch}. */
    List<Answer> send(List<?> batch) {
        return inUnits(batch, command -> {
            try {
                return new Answer(commands.sendAndWait(command), null, null);
            } catch (ReplayJobCommandRefusedException refused) {
                return new Answer(null, refused, null);
            }
        });
    }

    /**
     * Claims each incident and, where the job took the claim, asks it and records its answer, all in one unit of work: a
     * request exists only with the claim that allowed it and the answer the job recorded, so a job paused or cancelled at the
     * same moment (its events conflict with the claim) either comes after all three or stops them all. The answer's result
     * is the incident's outcome; a refused claim is the job's refusal, nothing asked.
     */
    List<Answer> ask(List<Ask> asks) {
        return inUnits(asks, ask -> {
            try {
                commands.sendAndWait(ask.claim());
            } catch (ReplayJobCommandRefusedException refused) {
                return new Answer(null, refused, null);
            }
            ReplayOutcome outcome = commands.sendAndWait(GenericCommandMessage.asCommandMessage(ask.request())
                    .andMetaData(Map.of(JobMetadata.KEY, ask.claim().jobId().value())));
            commands.sendAndWait(new RecordJobReplayCommand(ask.claim().jobId(), ask.claim().incidentId(), outcome));
            return new Answer(outcome, null, null);
        });
    }

    private <C> List<Answer> inUnits(List<C> batch, Function<C, Answer> each) {
        return units.togetherElseOneByOne(batch, each,
                e -> log.info("{} replay job commands not sent together ({}); sending them one by one", batch.size(), e.toString()),
                units.inItsOwnUnit(each, e -> new Answer(null, null, e)));
    }
}
