package io.dlqdesk.rollback.check;

import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Brokers that answer what the test sets: by default one empty DLQ partition and no committed offsets. */
class FakeBroker implements BrokerOffsets {
    static final TopicPartition DLQ_0 = new TopicPartition("orders.dlq", 0);

    final Map<TopicPartition, Long> ends = new HashMap<>(Map.of(DLQ_0, 0L));
    final Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
    final List<TopicPartition> probes = new ArrayList<>();
    boolean visible;
    boolean failing;
    int endOffsetReads;

    @Override
    public Map<TopicPartition, Long> endOffsets(Pattern topics) {
        failIfDown();
        endOffsetReads++;
        return ends;
    }

    @Override
    public Map<TopicPartition, Long> committedOffsets(String group) {
        failIfDown();
        return committed.getOrDefault(group, Map.of());
    }

    @Override
    public boolean visibleRecordsBetween(TopicPartition partition, long from, long to) {
        failIfDown();
        probes.add(partition);
        return visible;
    }

    @Override
    public void close() {
    }

    private void failIfDown() {
        if (failing) {
            throw new IllegalStateException("no answer from the brokers within PT5S");
        }
    }
}
