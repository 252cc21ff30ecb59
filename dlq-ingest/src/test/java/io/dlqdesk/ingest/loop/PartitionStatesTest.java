package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionStatesTest {

    private static final TopicPartition P0 = new TopicPartition("t.dlq", 0);
    private static final TopicPartition P1 = new TopicPartition("t.dlq", 1);

    private final PartitionStates states = new PartitionStates();

    @Test
    void workOfAnEndedAssignmentDoesNotCountButWorkOfTheCurrentOneDoes() {
        states.assigned(List.of(P0));
        Work old = work(P0, 5);
        states.forget(List.of(P0));
        assertThat(old.current()).isFalse();
        states.assigned(List.of(P0));
        Work current = work(P0, 5);

        assertThat(states.completed(old)).isFalse();
        assertThat(states.completed(current)).isTrue();
        assertThat(states.toCommit(List.of(P0))).containsKey(P0);
    }

    @Test
    void nothingAtOrPastAHeldRecordCountsWhileRecordsBeforeItDo() {
        states.assigned(List.of(P0, P1));
        Work before = work(P0, 1);
        Work heldAt = work(P0, 2);
        Work after = work(P0, 3);
        states.held(P0, 2, "cannot be written");

        assertThat(states.isHeld(P0)).isTrue();
        assertThat(states.isHeld(P1)).isFalse();
        assertThat(states.completed(after)).isFalse();
        assertThat(states.wouldHold(heldAt)).isFalse();
        assertThat(states.wouldHold(before)).isTrue();
        assertThat(states.completed(before)).isTrue();
        assertThat(states.toCommit(List.of(P0)).get(P0).offset()).isEqualTo(2);
        assertThat(states.heldPartitions()).containsOnlyKeys("t.dlq-0");
    }

    @Test
    void aHeldPartitionStaysPausedWhileOthersResumeWhenSlotsFree() {
        states.assigned(List.of(P0, P1));
        assertThat(states.pauses(List.of(P0, P1), true, 10).pause()).containsExactlyInAnyOrder(P0, P1);
        states.held(P0, 0, "malformed");
        PartitionStates.Pauses freed = states.pauses(List.of(P0, P1), false, 10);
        assertThat(freed.resume()).containsExactly(P1);
        assertThat(freed.pause()).isEmpty();
    }

    private Work work(TopicPartition partition, long offset) {
        Assignment assignment = states.received(partition, offset);
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null, null);
        return new Work(partition, assignment, record, new Classification.Malformed("test"));
    }
}
