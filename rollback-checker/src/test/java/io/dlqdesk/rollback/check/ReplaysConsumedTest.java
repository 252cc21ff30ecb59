package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFacts.MaybePublishedPosition;
import io.dlqdesk.projections.readiness.RollbackFacts.PublishedPosition;
import io.dlqdesk.rollback.IngestSubscription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class ReplaysConsumedTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition DLQ_0 = FakeBroker.DLQ_0;
    private static final IngestSubscription INGEST = IngestSubscription.of("ingest", ".*\\.dlq");

    private final FakeBroker broker = new FakeBroker();
    private final BoundedReads reads = new BoundedReads();
    private final ReplaysConsumed rule = new ReplaysConsumed(INGEST, false, Duration.ofSeconds(5), reads);

    @AfterEach
    void closeReads() {
        reads.close();
    }

    @Test
    void nothingPublishedAndTheIngestGroupAtTheEndIsMet() {
        broker.ends.put(DLQ_0, 10L);
        broker.committed.put("ingest", Map.of(DLQ_0, 10L));

        ConditionResult result = evaluate(new RollbackFacts(0, null, List.of(), List.of(), 4));

        assertThat(result.condition()).isEqualTo(Condition.REPLAYS_CONSUMED);
        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new ReplaysConsumed.Observed(0, List.of(), 0, List.of(), 4, List.of(), "ingest", 1, List.of()));
    }

    @Test
    void aReplayIsConsumedOnceItsTargetGroupCommittedPastIt() {
        RollbackFacts facts = new RollbackFacts(0, null, List.of(new PublishedPosition("billing", "orders", 0, 41)));

        broker.committed.put("billing", Map.of(ORDERS_0, 41L));
        ConditionResult notYet = evaluate(facts);
        assertThat(notYet.status()).isEqualTo(NOT_MET);
        assertThat(observed(notYet).replaysNotConsumed()).containsExactly(new ReplaysConsumed.ReplayNotConsumed("billing", "orders", 0, 41, 41L));

        broker.committed.put("billing", Map.of(ORDERS_0, 42L));
        assertThat(evaluate(facts).status()).isEqualTo(MET);
    }

    @Test
    void aTargetGroupWithoutACommittedOffsetHasNotConsumedTheReplay() {
        ConditionResult result = evaluate(new RollbackFacts(0, null, List.of(new PublishedPosition("billing", "orders", 0, 0))));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(observed(result).replaysNotConsumed()).singleElement()
                .satisfies(replay -> assertThat(replay.committedOffset()).isNull());
    }

    @Test
    void anAttemptThatMayHaveGoneOutIsConsumedOnceItsTargetGroupReachesTheEndOffsetRecordedAtItsDecision() {
        RollbackFacts facts = maybePublished(new MaybePublishedPosition("billing", "orders", 0, 2, 50L, 0));
        broker.visible = true;

        broker.committed.put("billing", Map.of(ORDERS_0, 49L));
        ConditionResult notYet = evaluate(facts);
        assertThat(notYet.status()).isEqualTo(NOT_MET);
        assertThat(observed(notYet).maybePublishedNotConsumed()).containsExactly(new ReplaysConsumed.MaybePublishedNotConsumed(
                "billing", "orders", 0, 2, new ReplaysConsumed.EndOffsetAtDecision(50L, 0), 49L));

        broker.committed.put("billing", Map.of(ORDERS_0, 50L));
        assertThat(evaluate(facts).status()).isEqualTo(MET);
    }

    @Test
    void onlyTransactionMarkersBeforeTheRecordedEndOffsetCountAsConsumed() {
        broker.committed.put("billing", Map.of(ORDERS_0, 49L));
        broker.visible = false;

        assertThat(evaluate(maybePublished(new MaybePublishedPosition("billing", "orders", 0, 1, 50L, 0))).status()).isEqualTo(MET);
        assertThat(broker.probes).containsExactly(ORDERS_0);
    }

    @Test
    void anAttemptWithoutARecordedEndOffsetIsNeverShownConsumed() {
        broker.committed.put("billing", Map.of(ORDERS_0, 1_000L));

        ConditionResult result = evaluate(maybePublished(new MaybePublishedPosition("billing", "orders", 0, 3, 50L, 1)));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(observed(result).maybePublishedNotConsumed()).singleElement()
                .satisfies(attempt -> assertThat(attempt.endOffsetAtDecision()).isEqualTo(new ReplaysConsumed.EndOffsetAtDecision(null, 1)));
    }

    @Test
    void theIngestGroupBehindAVisibleDlqRecordIsNotMetAndBeforeOnlyAMarkerIsMet() {
        broker.ends.put(DLQ_0, 10L);
        broker.committed.put("ingest", Map.of(DLQ_0, 9L));

        broker.visible = true;
        ConditionResult behind = evaluate(new RollbackFacts(0, null, List.of()));
        assertThat(behind.status()).isEqualTo(NOT_MET);
        assertThat(behind.explanation()).isEqualTo("1 DLQ partition(s) not yet read up to the high-water mark by ingest");
        assertThat(observed(behind).dlqPartitionsBehind()).containsExactly(new ReplaysConsumed.DlqPartitionBehind("orders.dlq", 0, 10, 9L));

        broker.visible = false;
        assertThat(evaluate(new RollbackFacts(0, null, List.of())).status()).isEqualTo(MET);
    }

    @Test
    void factsOrHighWaterMarksThatCouldNotBeReadAreUnknown() throws Exception {
        ConditionResult factsUnread = rule.evaluate(Read.failed("database did not answer within PT5S"), broker, Read.of(broker.ends));
        ConditionResult endsUnread = rule.evaluate(Read.of(new RollbackFacts(0, null, List.of())), broker,
                Read.failed("broker did not answer within PT5S"));

        assertThat(factsUnread.status()).isEqualTo(UNKNOWN);
        assertThat(factsUnread.observed()).isEqualTo(Observation.NOTHING);
        assertThat(endsUnread.status()).isEqualTo(UNKNOWN);
        assertThat(endsUnread.explanation()).isEqualTo("broker did not answer within PT5S");
    }

    @Test
    void brokersFailingWhileAskedForCommittedOffsetsAreUnknown() {
        broker.failing = true;

        ConditionResult result = evaluate(new RollbackFacts(0, null, List.of()));

        assertThat(result.status()).isEqualTo(UNKNOWN);
        assertThat(result.explanation()).startsWith("broker could not be read (error ").doesNotContain("no answer from the brokers");
    }

    @Test
    void noDlqTopicAtAllIsUnknownUnlessAllowed() throws Exception {
        broker.ends.clear();

        ConditionResult refused = evaluate(new RollbackFacts(0, null, List.of()));
        assertThat(refused.status()).isEqualTo(UNKNOWN);
        assertThat(refused.explanation()).contains("no topic matches the DLQ pattern .*\\.dlq", "allow-no-dlq-topics");

        ReplaysConsumed allowing = new ReplaysConsumed(INGEST, true, Duration.ofSeconds(5), reads);
        assertThat(allowing.evaluate(Read.of(new RollbackFacts(0, null, List.of())), broker, Read.of(broker.ends)).status())
                .isEqualTo(MET);
    }

    private ConditionResult evaluate(RollbackFacts facts) {
        try {
            return rule.evaluate(Read.of(facts), broker, Read.of(broker.ends));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static RollbackFacts maybePublished(MaybePublishedPosition position) {
        return new RollbackFacts(0, null, List.of(), List.of(position), 0);
    }

    private static ReplaysConsumed.Observed observed(ConditionResult result) {
        return (ReplaysConsumed.Observed) result.observed();
    }
}
