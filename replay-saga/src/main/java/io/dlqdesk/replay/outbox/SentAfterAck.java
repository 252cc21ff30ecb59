package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.replay.PublishResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Once the broker has acknowledged a row, it is never counted as a failed try: when the round that sent it could not be
 * written, each acknowledged row is marked SENT in a fresh transaction of its own, with a backoff, for up to
 * {@code retryFor}. A row decided meanwhile (another instance claimed and re-sent it) gives that decision. Rows that cannot
 * be written stay PENDING with their tries unchanged and are sent again in a later round.
 */
final class SentAfterAck {

    private static final Logger log = LoggerFactory.getLogger(SentAfterAck.class);
    /** The first pause before marking an acknowledged row SENT again; doubled up to the max backoff. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

    /** The rows marked, and the error for those left PENDING (null when none is). */
    record Marked(List<OutboxPoller.Decided> decided, RuntimeException unmarked) {
    }

    private final ReplayOutbox outbox;
    private final TransactionTemplate transactions;
    private final Duration retryFor;
    private final Duration maxBackoff;
    private final BooleanSupplier stopped;

    SentAfterAck(ReplayOutbox outbox, TransactionTemplate transactions, Duration retryFor, Duration maxBackoff, BooleanSupplier stopped) {
        this.outbox = outbox;
        this.transactions = transactions;
        this.retryFor = retryFor;
        this.maxBackoff = maxBackoff;
        this.stopped = stopped;
    }

    Marked mark(List<RowDecision.Sent> acknowledged, RuntimeException firstError) {
        log.warn("replays {} were acknowledged but could not be recorded SENT, retrying for {}: {}",
                acknowledged.stream().map(ack -> ack.row().replayId()).toList(), retryFor, firstError.toString());
        long giveUpAt = System.nanoTime() + retryFor.toNanos();
        ExponentialBackOff backOff = new ExponentialBackOff(FIRST_PAUSE.toMillis(), 2.0);
        backOff.setMaxInterval(maxBackoff.toMillis());
        BackOffExecution pauses = backOff.start();
        List<RowDecision.Sent> left = new ArrayList<>(acknowledged);
        List<OutboxPoller.Decided> decided = new ArrayList<>();
        RuntimeException last = firstError;
        while (!left.isEmpty() && System.nanoTime() < giveUpAt && !stopped.getAsBoolean()) {
            try {
                Thread.sleep(pauses.nextBackOff());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            for (Iterator<RowDecision.Sent> it = left.iterator(); it.hasNext(); ) {
                RowDecision.Sent ack = it.next();
                try {
                    PublishResult result = transactions.execute(status -> outbox.markSent(ack.row().replayId(), ack.at()));
                    log.info("replay {} recorded SENT after the ack", ack.row().replayId());
                    decided.add(new OutboxPoller.Decided(ack.row(), result));
                    it.remove();
                } catch (RuntimeException e) {
                    last = e;
                    log.warn("replay {} still not recorded SENT: {}", ack.row().replayId(), e.toString());
                }
            }
        }
        for (RowDecision.Sent ack : left) {
            log.error("replay {} was acknowledged at {} but not recorded SENT within {}: it stays PENDING (no try counted) and is sent again",
                    ack.row().replayId(), ack.at(), retryFor);
        }
        return new Marked(decided, left.isEmpty() ? null : last);
    }
}
