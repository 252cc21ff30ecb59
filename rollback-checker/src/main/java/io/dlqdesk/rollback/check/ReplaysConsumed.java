package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.rollback.IngestSubscription;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * {@link Condition#REPLAYS_CONSUMED}: every replay published (however long ago, unless an admin waived it) was consumed by its target group (its committed
 * offset is past the replayed one); every target group of an attempt that may have gone out (PUBLISH_FAILED, PUBLISH_UNKNOWN)
 * read up to the end offset recorded at its decision; the ingest group read the DLQ topics up to the high-water marks taken at
 * the start of the check. Offsets before those that hold only transaction markers or aborted records count as read.
 */
final class ReplaysConsumed {

    /** @param waivedAttempts decided attempts an admin waived, left out; {@code recentWaivers} the newest of them, with who and why */
    record Observed(int replaysChecked, List<ReplayNotConsumed> replaysNotConsumed, int maybePublishedChecked,
                    List<MaybePublishedNotConsumed> maybePublishedNotConsumed, long waivedAttempts, List<RollbackFacts.Waiver> recentWaivers,
                    String ingestGroup, int dlqPartitionsChecked, List<DlqPartitionBehind> dlqPartitionsBehind) implements Observation {

        Observed {
            replaysNotConsumed = List.copyOf(replaysNotConsumed);
            maybePublishedNotConsumed = List.copyOf(maybePublishedNotConsumed);
            recentWaivers = List.copyOf(recentWaivers);
            dlqPartitionsBehind = List.copyOf(dlqPartitionsBehind);
        }
    }

    /** @param committedOffset null when the target group has none on the partition ({@code "none"}) */
    record ReplayNotConsumed(String targetGroup, String topic, int partition, long replayedOffset,
                             @JsonSerialize(nullsUsing = NoneWhenAbsent.class) Long committedOffset) {
    }

    /** @param committedOffset null when the target group has none on the partition ({@code "none"}) */
    record MaybePublishedNotConsumed(String targetGroup, String topic, int partition, long attempts, EndOffsetAtDecision endOffsetAtDecision,
                                     @JsonSerialize(nullsUsing = NoneWhenAbsent.class) Long committedOffset) {
    }

    /**
     * The highest end offset recorded when the attempts were decided, or, when some of them have none, how many: then where they
     * could lie is unknown and they can never be shown consumed. In the report, the offset or a sentence saying so.
     *
     * @param offset           null when not known for all the attempts
     * @param attemptsWithout  attempts decided without an end offset recorded
     */
    record EndOffsetAtDecision(Long offset, long attemptsWithout) {

        static EndOffsetAtDecision of(RollbackFacts.MaybePublishedPosition position) {
            boolean known = position.withoutEndOffset() == 0 && position.highestEndOffset() != null;
            return new EndOffsetAtDecision(known ? position.highestEndOffset() : null, position.withoutEndOffset());
        }

        boolean known() {
            return offset != null;
        }

        @JsonValue
        Object json() {
            return known() ? offset
                    : "not recorded for " + attemptsWithout + " of the attempts (fails closed until an admin waives them)";
        }
    }

    /** @param committedOffset null when the ingest group has none on the partition ({@code "none"}) */
    record DlqPartitionBehind(String topic, int partition, long highWatermark,
                              @JsonSerialize(nullsUsing = NoneWhenAbsent.class) Long committedOffset) {
    }

    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final IngestSubscription ingest;
    private final boolean allowNoDlqTopics;
    private final Duration requestTimeout;
    private final BoundedReads reads;

    /**
     * @param allowNoDlqTopics whether finding no DLQ topic at all may count as "the ingest group is caught up"
     * @param requestTimeout   the bound on each broker request
     */
    ReplaysConsumed(IngestSubscription ingest, boolean allowNoDlqTopics, Duration requestTimeout, BoundedReads reads) {
        this.ingest = Objects.requireNonNull(ingest, "ingest");
        this.allowNoDlqTopics = allowNoDlqTopics;
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.reads = Objects.requireNonNull(reads, "reads");
    }

    /** @param dlqEnds the DLQ topics' high-water marks, taken once at the start of the check */
    ConditionResult evaluate(Read<RollbackFacts> facts, BrokerOffsets broker, Read<Map<TopicPartition, Long>> dlqEnds)
            throws InterruptedException {
        Condition condition = Condition.REPLAYS_CONSUMED;
        if (facts.failed()) {
            return unknown(condition, facts.error());
        }
        if (dlqEnds.failed()) {
            return unknown(condition, dlqEnds.error());
        }
        if (dlqEnds.value().isEmpty() && !allowNoDlqTopics) {
            return unknown(condition, "no topic matches the DLQ pattern " + ingest.topicPattern() + ": a wrong dlqdesk.ingest.topic-pattern "
                    + "or a principal not allowed to see the DLQ topics would look the same (dlqdesk.rollback.allow-no-dlq-topics=true accepts it)");
        }
        RollbackFacts known = facts.value();
        // bounded per broker request inside; the whole of it by as many bounds as there are requests to make
        Duration bound = requestTimeout.multipliedBy(2L + known.published().size() + 2L * known.maybePublished().size() + dlqEnds.value().size());
        Read<Observed> read = reads.read("broker", () -> observe(broker, known, dlqEnds.value()), bound);
        if (read.failed()) {
            return unknown(condition, read.error());
        }
        Observed observed = read.value();
        if (observed.replaysNotConsumed().isEmpty() && observed.maybePublishedNotConsumed().isEmpty() && observed.dlqPartitionsBehind().isEmpty()) {
            return met(condition, "every replay published was consumed by its target group (or waived by an admin), every "
                    + "target group read past the end offsets recorded when attempts that may have gone out were decided, and "
                    + ingest.groupId() + " has read the DLQ topics up to their high-water marks", observed);
        }
        List<String> reasons = new ArrayList<>();
        if (!observed.replaysNotConsumed().isEmpty()) {
            reasons.add(observed.replaysNotConsumed().size() + " replayed record(s) not yet consumed by their target group");
        }
        if (!observed.maybePublishedNotConsumed().isEmpty()) {
            reasons.add(observed.maybePublishedNotConsumed().size() + " partition(s) where a PUBLISH_FAILED or PUBLISH_UNKNOWN attempt may "
                    + "have landed and the target group has not read up to the end offset recorded at the decision (or none was recorded)");
        }
        if (!observed.dlqPartitionsBehind().isEmpty()) {
            reasons.add(observed.dlqPartitionsBehind().size() + " DLQ partition(s) not yet read up to the high-water mark by " + ingest.groupId());
        }
        return notMet(condition, String.join("; ", reasons), observed);
    }

    private Observed observe(BrokerOffsets broker, RollbackFacts facts, Map<TopicPartition, Long> dlqEnds) {
        List<MaybePublishedNotConsumed> maybeNotConsumed = maybePublishedNotConsumed(broker, facts);
        List<ReplayNotConsumed> notConsumed = replaysNotConsumed(broker, facts);
        List<DlqPartitionBehind> behind = dlqPartitionsBehind(broker, dlqEnds);
        return new Observed(facts.published().size(), notConsumed, facts.maybePublished().size(), maybeNotConsumed,
                facts.waivedAttempts(), facts.recentWaivers(), ingest.groupId(), dlqEnds.size(), behind);
    }

    private static List<ReplayNotConsumed> replaysNotConsumed(BrokerOffsets broker, RollbackFacts facts) {
        List<ReplayNotConsumed> notConsumed = new ArrayList<>();
        Map<String, List<RollbackFacts.PublishedPosition>> byGroup = facts.published().stream()
                .collect(Collectors.groupingBy(RollbackFacts.PublishedPosition::targetGroup, TreeMap::new, Collectors.toList()));
        byGroup.forEach((group, positions) -> {
            Map<TopicPartition, Long> committed = broker.committedOffsets(group);
            for (RollbackFacts.PublishedPosition position : positions) {
                Long offset = committed.get(new TopicPartition(position.topic(), position.partition()));
                // a committed offset is the next one the group reads: past the replayed record means consumed
                if (offset == null || offset <= position.highestOffset()) {
                    notConsumed.add(new ReplayNotConsumed(group, position.topic(), position.partition(), position.highestOffset(), offset));
                }
            }
        });
        return notConsumed;
    }

    /**
     * PUBLISH_FAILED and PUBLISH_UNKNOWN attempts may have gone out: any record of theirs lies below the end offset recorded
     * when they were decided, so the target group must have read up to it (or only invisible records, transaction markers
     * and aborted ones, remain before it). Without a recorded end offset nothing can show it consumed: fail closed.
     */
    private static List<MaybePublishedNotConsumed> maybePublishedNotConsumed(BrokerOffsets broker, RollbackFacts facts) {
        List<MaybePublishedNotConsumed> notConsumed = new ArrayList<>();
        Map<String, List<RollbackFacts.MaybePublishedPosition>> byGroup = facts.maybePublished().stream()
                .collect(Collectors.groupingBy(RollbackFacts.MaybePublishedPosition::targetGroup, TreeMap::new, Collectors.toList()));
        byGroup.forEach((group, positions) -> {
            Map<TopicPartition, Long> committed = broker.committedOffsets(group);
            for (RollbackFacts.MaybePublishedPosition position : positions) {
                TopicPartition partition = new TopicPartition(position.topic(), position.partition());
                Long offset = committed.get(partition);
                EndOffsetAtDecision end = EndOffsetAtDecision.of(position);
                boolean consumed = end.known() && offset != null
                        && (offset >= end.offset() || !broker.visibleRecordsBetween(partition, offset, end.offset()));
                if (!consumed) {
                    notConsumed.add(new MaybePublishedNotConsumed(group, position.topic(), position.partition(), position.attempts(), end, offset));
                }
            }
        });
        return notConsumed;
    }

    private List<DlqPartitionBehind> dlqPartitionsBehind(BrokerOffsets broker, Map<TopicPartition, Long> dlqEnds) {
        List<DlqPartitionBehind> behind = new ArrayList<>();
        Map<TopicPartition, Long> committed = broker.committedOffsets(ingest.groupId());
        dlqEnds.entrySet().stream().sorted(Map.Entry.comparingByKey(BY_TOPIC_AND_PARTITION)).forEach(end -> {
            Long offset = committed.get(end.getKey());
            long from = offset == null ? 0 : offset;
            if (from < end.getValue() && broker.visibleRecordsBetween(end.getKey(), from, end.getValue())) {
                behind.add(new DlqPartitionBehind(end.getKey().topic(), end.getKey().partition(), end.getValue(), offset));
            }
        });
        return behind;
    }
}
