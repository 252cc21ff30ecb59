package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.periodic.PeriodicTask;
import io.dlqdesk.replay.edit.EditContentStore;
import io.dlqdesk.replay.edit.EditedContent;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.replay.source.PartitionEndReader;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Publishes due outbox rows in rounds, one database transaction per round: claim up to {@code claimSize} rows
 * ({@code FOR UPDATE SKIP LOCKED}, so instances never take the same row; the replay deadline is read in the same
 * query), check the switch, re-read all their source records at once and check each is still the recorded one,
 * send them all on the idempotent producer and wait for every acknowledgement, then write every row's decision
 * with one decision time from the database clock in one batch, and commit. The results then go to the incidents
 * in one unit of work. While the switch is off nothing is sent. What becomes of each row ({@link SourceCheck},
 * {@link RowDecider}) is decided apart from this: the poller gathers the facts, records the decisions and counts them.
 * <p>
 * Once the broker has acknowledged, the row is never counted as a failed try: if writing the round (or
 * committing it) fails, the claim is rolled back and each acknowledged row is marked SENT again in fresh
 * transactions with a bounded backoff ({@link SentAfterAck}). Only if that cannot be written within {@code markSentRetryFor} (or after a
 * crash) a row stays PENDING with its tries unchanged and is sent again — after a crash up to a whole round:
 * publishing is at-least-once, consumers deduplicate by eventId. Meanwhile another instance may claim and re-send it.
 * <p>
 * A row marked FAILED records its target partition's end offset, read after the round's sends ended: an earlier
 * try that timed out may have landed below it (the rollback check requires the target group to reach it).
 */
public class OutboxPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxPoller.class);

    /**
     * How the poller tries: how often it looks, how many rows a round claims, how many tries a row gets, the
     * backoff between them, and how long it keeps trying to record an acknowledged send as SENT.
     */
    public record Settings(Duration pollInterval, int claimSize, int maxTries, Duration initialBackoff, Duration maxBackoff,
                           Duration markSentRetryFor) {
    }

    private final ReplayOutbox outbox;
    private final SourceRecordReader reader;
    /** Used, not owned: whoever created it closes it. */
    private final ReplayPublisher publisher;
    private final EditContentStore edits;
    private final PartitionEndReader ends;
    private final ReplaySwitch replaySwitch;
    private final ResultReporter results;
    private final TransactionTemplate transactions;
    private final Settings settings;
    private final RowDecider decide;
    private final PublishCounts counts;
    private final SentAfterAck sentAfterAck;
    private final PeriodicTask rounds;
    /** Set by {@link #stop()}: the round in progress ends, no further one starts. A poller driven by hand is never stopped. */
    private volatile boolean stopped;

    public OutboxPoller(ReplayOutbox outbox, SourceRecordReader reader, ReplayPublisher publisher, EditContentStore edits, PartitionEndReader ends,
                        ReplaySwitch replaySwitch, ResultReporter results, TransactionTemplate transactions, Settings settings,
                        MeterRegistry meters) {
        this.outbox = outbox;
        this.reader = reader;
        this.publisher = publisher;
        this.edits = edits;
        this.ends = ends;
        this.replaySwitch = replaySwitch;
        this.results = results;
        this.transactions = transactions;
        this.settings = settings;
        this.decide = new RowDecider(settings.maxTries(), settings.initialBackoff(), settings.maxBackoff());
        this.counts = new PublishCounts(meters, settings.maxTries());
        this.sentAfterAck = new SentAfterAck(outbox, transactions, settings.markSentRetryFor(), settings.maxBackoff(), () -> stopped);
        this.rounds = PeriodicTask.named("replay-outbox-poller-").firstAfter(Duration.ZERO).every(settings.pollInterval())
                .finishingARoundWithin(Duration.ofSeconds(30)).runs(this::pollSafely);
    }

    /** One pass: rounds until no due row is left, the switch is off, or the poller is stopped. Public for tests that drive it by hand. */
    public void pollOnce() {
        while (!stopped) {
            List<RowDecision.Sent> acknowledged = new ArrayList<>();
            Round round;
            try {
                round = transactions.execute(status -> claimAndDecide(acknowledged));
            } catch (RuntimeException e) {
                if (acknowledged.isEmpty()) {
                    throw e;
                }
                // the claim rolled back: no try counted; the acknowledged rows are marked SENT on their own
                SentAfterAck.Marked marked = sentAfterAck.mark(acknowledged, e);
                results.report(marked.decided());
                if (marked.unmarked() != null) {
                    throw marked.unmarked();
                }
                continue;
            }
            if (round == null || round.claimed() == 0) {
                return; // nothing due
            }
            results.report(round.decided());
            if (round.switchedOff()) {
                return;
            }
        }
    }

    /** A result to report: the row it is about and what was decided. */
    public record Decided(OutboxRow row, PublishResult result) {
    }

    private record Round(int claimed, boolean switchedOff, List<Decided> decided) {
    }

    /**
     * Runs inside the round's transaction. {@code acknowledged} gets every row the broker acknowledged as soon as
     * it did: from then on nothing may count a failed try for it.
     */
    private Round claimAndDecide(List<RowDecision.Sent> acknowledged) {
        if (!replaySwitch.isOn()) {
            return pastDeadlineWhileOff();
        }
        List<ClaimedRow> claimed = outbox.claimDue(settings.claimSize());
        if (claimed.isEmpty()) {
            return new Round(0, false, List.of());
        }
        counts.claimed(claimed.size());
        // after the claim: a switch turned off while the rows were being claimed holds them all, untried
        if (!replaySwitch.isOn()) {
            return new Round(claimed.size(), true, List.of());
        }
        Map<String, RowDecision> decisions = new LinkedHashMap<>();
        List<OutboxRow> toRead = new ArrayList<>();
        for (ClaimedRow claim : claimed) {
            if (claim.pastDeadline()) {
                decisions.put(claim.row().replayId(), decide.pastDeadline(claim.row()));
            } else {
                toRead.add(claim.row());
            }
        }
        List<Outgoing> outgoing = readAndCheck(toRead, decisions);
        send(outgoing, decisions, acknowledged);
        // a database error from here on is not a failed try for the acknowledged rows: pollOnce marks them SENT again
        List<RowDecision> ordered = new ArrayList<>(claimed.stream().map(claim -> decisions.get(claim.row().replayId())).toList());
        return new Round(claimed.size(), false, recorded(ordered));
    }

    /**
     * While the switch is off nothing is sent, and a row past its deadline can never be sent again: it is FAILED now (a
     * decision that sends nothing), so its attempt does not wait for the switch. Other rows are left as they are.
     */
    private Round pastDeadlineWhileOff() {
        List<RowDecision> expired = outbox.claimPastDeadline(settings.claimSize()).stream()
                .<RowDecision>map(claim -> decide.pastDeadline(claim.row())).toList();
        if (expired.isEmpty()) {
            return new Round(0, true, List.of());
        }
        counts.claimed(expired.size());
        return new Round(expired.size(), expired.size() < settings.claimSize(), recorded(new ArrayList<>(expired)));
    }

    /** Counts, logs and records the round's decisions by the database clock; the results to report. */
    private List<Decided> recorded(List<RowDecision> ordered) {
        counts.countAndLog(ordered);
        withEndOffsets(ordered);
        Instant decidedAt = outbox.decisionTime();
        outbox.record(ordered, decidedAt);
        List<Decided> decided = new ArrayList<>();
        for (RowDecision decision : ordered) {
            decision.result(decidedAt).ifPresent(result -> decided.add(new Decided(decision.row(), result)));
        }
        return decided;
    }

    /** A row whose source record is still the recorded one, with its replay ready to send. */
    private record Outgoing(OutboxRow row, ProducerRecord<byte[], byte[]> replay) {
    }

    /** Reads every row's source record at once; rows that cannot be sent get their decision here. */
    private List<Outgoing> readAndCheck(List<OutboxRow> rows, Map<String, RowDecision> decisions) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<RecordLocation, SourceRead> reads;
        try {
            reads = reader.readAll(rows.stream().map(OutboxRow::source).distinct().toList());
        } catch (RuntimeException e) { // anything else about the read: a failed try of each row, never a poller stuck on them
            for (OutboxRow row : rows) {
                decisions.put(row.replayId(), decide.failedTry(row, "source record could not be read: " + e));
            }
            return List.of();
        }
        List<Outgoing> outgoing = new ArrayList<>();
        for (OutboxRow row : rows) {
            try {
                SourceCheck check = SourceCheck.of(row, reads.get(row.source()));
                if (check instanceof SourceCheck.Refused refused) {
                    decisions.put(row.replayId(), decide.refused(row, refused));
                } else {
                    outgoing.add(new Outgoing(row, publisher.replayOf(((SourceCheck.Unchanged) check).record(), row, edit(row))));
                }
            } catch (RuntimeException e) {
                decisions.put(row.replayId(), decide.failedTry(row, e.getClass().getSimpleName() + ": " + e.getMessage()));
            }
        }
        return outgoing;
    }

    /** The approved edit the row publishes, checked against its hash; null when it publishes the source record as it is. */
    private EditedContent edit(OutboxRow row) {
        if (row.editContentHash() == null) {
            return null;
        }
        return edits.find(row.incidentId(), row.editContentHash()).orElseThrow(() -> new IllegalStateException(
                "the content of the approved edit " + row.editContentHash().hex() + " is not stored: nothing else is published in its place"));
    }

    /** Sends all, then waits for all; an acknowledged row is SENT, any other a failed try. */
    private void send(List<Outgoing> outgoing, Map<String, RowDecision> decisions, List<RowDecision.Sent> acknowledged) {
        if (outgoing.isEmpty()) {
            return;
        }
        List<ReplayPublisher.Sent> sent = publisher.sendAll(outgoing.stream().map(Outgoing::replay).toList());
        for (int i = 0; i < outgoing.size(); i++) {
            RowDecision decision = decide.sent(outgoing.get(i).row(), sent.get(i));
            if (decision instanceof RowDecision.Sent acknowledgedRow) {
                acknowledged.add(acknowledgedRow);
            }
            decisions.put(decision.row().replayId(), decision);
        }
    }

    /** Reads, in one request, the end offsets of the partitions of the round's FAILED rows: any earlier try that landed lies below. */
    private void withEndOffsets(List<RowDecision> decisions) {
        Set<TopicPartition> partitions = decisions.stream().filter(decision -> decision instanceof RowDecision.Failed)
                .map(decision -> targetPartition(decision.row())).collect(Collectors.toSet());
        if (partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> endOffsets = ends.endOffsets(partitions);
        for (ListIterator<RowDecision> it = decisions.listIterator(); it.hasNext(); ) {
            if (it.next() instanceof RowDecision.Failed failedRow) {
                Long end = endOffsets.get(targetPartition(failedRow.row()));
                log.warn("replay {} FAILED (end offset of its target partition: {}): {}", failedRow.row().replayId(),
                        end == null ? "not readable" : end, failedRow.reason());
                it.set(failedRow.withEndOffset(end));
            }
        }
    }

    private static TopicPartition targetPartition(OutboxRow row) {
        return new TopicPartition(row.source().topic(), row.source().partition());
    }

    private void pollSafely() {
        try {
            pollOnce();
        } catch (RuntimeException e) { // a rolled-back row stays PENDING and is taken again next time
            log.warn("outbox poll failed, retrying in {}: {}", settings.pollInterval(), e.toString());
        }
    }

    @Override
    public void start() {
        stopped = false;
        rounds.start();
    }

    /** The round in progress finishes (a row being sent is not interrupted between ack and commit); no further row is claimed. */
    @Override
    public void stop() {
        stopped = true;
        rounds.stop();
    }

    @Override
    public boolean isRunning() {
        return rounds.isRunning();
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200; // after Axon and the database are up; stopped before them
    }
}
