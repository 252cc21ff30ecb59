package io.dlqdesk.commandbatch;

import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.RollbackConfigurationType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Several commands in one unit of work and one transaction: each aggregate loaded once, every command nested in the
 * unit, their events appended together in one commit; anything thrown rolls them all back. Callers send the commands in
 * the order of the aggregates they address, since each stays locked until the unit ends. When the unit fails as a whole
 * (another instance changed an aggregate at the same moment), {@link #togetherElseOneByOne} sends them one by one.
 */
public final class CommandBatch {

    private final TransactionManager transactions;

    public CommandBatch(TransactionManager transactions) {
        this.transactions = transactions;
    }

    /** Runs {@code commands} in one unit of work; rethrows what rolled it back. */
    public <R> R inOneUnit(Callable<R> commands) throws Exception {
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        unit.attachTransaction(transactions);
        ResultMessage<R> outcome = unit.executeWithResult(commands, RollbackConfigurationType.ANY_THROWABLE);
        if (outcome.isExceptional()) {
            Throwable cause = outcome.exceptionResult();
            throw cause instanceof Exception exception ? exception : new IllegalStateException(cause);
        }
        return outcome.getPayload();
    }

    /**
     * The answers for every item, in order: all sent by {@code inTheUnit} in one unit when there is more than one; else,
     * or when that unit failed as a whole ({@code fellBack} hears why), each sent by {@code alone}.
     */
    public <C, A> List<A> togetherElseOneByOne(List<C> items, Function<C, A> inTheUnit, Consumer<RuntimeException> fellBack,
                                               Function<C, A> alone) {
        if (items.size() > 1) {
            try {
                return inOneUnitUnchecked(items, inTheUnit);
            } catch (RuntimeException e) { // rolled back as a whole
                fellBack.accept(e);
            }
        }
        List<A> answers = new ArrayList<>();
        for (C item : items) {
            answers.add(alone.apply(item));
        }
        return answers;
    }

    /** The usual {@code alone}: {@code each} in a unit of its own; a unit that fails is answered by {@code failed}. */
    public <C, A> Function<C, A> inItsOwnUnit(Function<C, A> each, Function<RuntimeException, A> failed) {
        return item -> {
            try {
                return inOneUnitUnchecked(List.of(item), each).get(0);
            } catch (RuntimeException e) {
                return failed.apply(e);
            }
        };
    }

    private <C, A> List<A> inOneUnitUnchecked(List<C> items, Function<C, A> each) {
        try {
            return inOneUnit(() -> {
                List<A> answers = new ArrayList<>();
                for (C item : items) {
                    answers.add(each.apply(item));
                }
                return answers;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) { // only checked ones come from a Callable: these items' functions throw none
            throw new IllegalStateException(e);
        }
    }
}
