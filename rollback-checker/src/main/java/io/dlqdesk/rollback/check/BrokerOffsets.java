package io.dlqdesk.rollback.check;

import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.regex.Pattern;

/** What the check reads from the brokers, within one check. Every method may throw when the brokers cannot be asked. */
public interface BrokerOffsets extends AutoCloseable {

    /** The high-water mark of every partition of every topic matching {@code topics}. */
    Map<TopicPartition, Long> endOffsets(Pattern topics);

    /** The group's committed offsets (the next offset it will read); partitions without one are absent. */
    Map<TopicPartition, Long> committedOffsets(String group);

    /**
     * Whether a read_committed consumer finds a record in [{@code from}, {@code to}): offsets below a
     * high-water mark can be transaction markers or aborted records, which no consumer ever commits past
     * explicitly. True also when an open transaction holds the range.
     */
    boolean visibleRecordsBetween(TopicPartition partition, long from, long to);

    @Override
    void close();
}
