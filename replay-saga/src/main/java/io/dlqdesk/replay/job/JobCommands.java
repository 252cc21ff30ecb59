package io.dlqdesk.replay.job;

import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.RollbackConfigurationType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Sends a tick's commands for one job in one unit of work: the job is loaded once, every command nested in it, their
 * events appended together in one commit. A refusal answers that command alone; if the unit fails as a whole (another
 * instance changed the job at the same moment), they are sent again one by one, each retried on such a conflict.
 */
public class JobCommands {

    private static final Logger log = LoggerFactory.getLogger(JobCommands.class);

    /** How one command ended: its result, or the job's refusal, or another failure. */
    record Answer(Object result, ReplayJobCommandRefusedException refused, RuntimeException failed) {

        boolean ok() {
            return refused == null && failed == null;
        }
    }

    private final CommandGateway commands;
    private final TransactionManager transactions;

    public JobCommands(CommandGateway commands, TransactionManager transactions) {
        this.commands = commands;
        this.transactions = transactions;
    }

    /** The answers, in the order of {@code batch}. */
    List<Answer> send(List<?> batch) {
        if (batch.size() > 1) {
            try {
                List<Answer> answers = new ArrayList<>();
                DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
                unit.attachTransaction(transactions);
                ResultMessage<?> outcome = unit.executeWithResult(() -> {
                    for (Object command : batch) {
                        answers.add(sendRefusalAsAnswer(command));
                    }
                    return null;
                }, RollbackConfigurationType.ANY_THROWABLE);
                if (!outcome.isExceptional()) {
                    return answers;
                }
                log.info("{} replay job commands not sent together ({}); sending them one by one", batch.size(), outcome.exceptionResult().toString());
            } catch (RuntimeException e) { // the commit failed: rolled back as a whole
                log.info("{} replay job commands not sent together ({}); sending them one by one", batch.size(), e.toString());
            }
        }
        List<Answer> answers = new ArrayList<>();
        for (Object command : batch) {
            try {
                answers.add(sendRefusalAsAnswer(command));
            } catch (RuntimeException e) {
                answers.add(new Answer(null, null, e));
            }
        }
        return answers;
    }

    private Answer sendRefusalAsAnswer(Object command) {
        try {
            return new Answer(commands.sendAndWait(command), null, null);
        } catch (ReplayJobCommandRefusedException refused) {
            return new Answer(null, refused, null);
        }
    }
}
