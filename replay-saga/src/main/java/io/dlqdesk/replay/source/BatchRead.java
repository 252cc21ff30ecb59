package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * One batch read of {@link SourceRecordReader#readAll}, within its timeout: the locations still to read per partition,
 * in offset order. A partition is sought to its lowest open offset; the first record at or after it answers every open
 * offset up to that record's own (as a single read would: compaction returns the next record), then the partition is
 * sought to its next open offset.
 */
final class BatchRead {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Collection<RecordLocation> locations;
    private final Map<RecordLocation, SourceRead> reads = new LinkedHashMap<>();
    private final Map<TopicPartition, NavigableSet<Long>> open = new HashMap<>();
    private final Map<TopicPartition, Long> logEnds = new HashMap<>();
    private final Duration timeout;
    private final long deadline;

    BatchRead(KafkaConsumer<byte[], byte[]> consumer, Collection<RecordLocation> locations, Duration timeout) {
        this.consumer = consumer;
        this.locations = locations;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    Map<RecordLocation, SourceRead> run() {
        try {
            checkRanges();
            readRecords();
        } catch (KafkaException e) { // includes timeouts: what is not read yet could not be asked
            String detail = e.getClass().getSimpleName() + ": " + e.getMessage();
            for (RecordLocation location : locations) {
                reads.putIfAbsent(location, new SourceRead.Unavailable(location, detail));
            }
        }
        for (RecordLocation location : locations) {
            reads.putIfAbsent(location, new SourceRead.Unavailable(location, "no record came back within " + timeout));
        }
        return reads;
    }

    /** Topics and partitions that exist, and offsets within the log: everything else is answered here. */
    private void checkRanges() {
        Map<String, Set<Integer>> partitionsByTopic = new HashMap<>();
        Set<TopicPartition> existing = new HashSet<>();
        for (RecordLocation location : locations) {
            Set<Integer> partitions = partitionsByTopic.computeIfAbsent(location.topic(), topic -> {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, SourceRecordReader.remaining(deadline));
                Set<Integer> numbers = new HashSet<>();
                if (infos != null) {
                    infos.forEach(info -> numbers.add(info.partition()));
                }
                return numbers;
            });
            if (partitions.isEmpty()) {
                reads.put(location, new SourceRead.NotThere(location, SourceRead.Reason.TOPIC_MISSING,
                        "topic " + location.topic() + " does not exist"));
            } else if (!partitions.contains(location.partition())) {
                reads.put(location, new SourceRead.NotThere(location, SourceRead.Reason.PARTITION_MISSING,
                        "topic " + location.topic() + " has " + partitions.size() + " partitions, no partition " + location.partition()));
            } else {
                existing.add(new TopicPartition(location.topic(), location.partition()));
            }
        }
        if (existing.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(existing, SourceRecordReader.remaining(deadline));
        logEnds.putAll(consumer.endOffsets(existing, SourceRecordReader.remaining(deadline))); // read_committed: the last stable offsets
        for (RecordLocation location : locations) {
            if (reads.containsKey(location)) {
                continue;
            }
            TopicPartition partition = new TopicPartition(location.topic(), location.partition());
            long logStart = starts.get(partition);
            long logEnd = logEnds.get(partition);
            if (location.offset() < logStart) {
                reads.put(location, new SourceRead.NotThere(location, SourceRead.Reason.BELOW_LOG_START,
                        "offset " + location.offset() + " is below the log start " + logStart + " (deleted by retention)"));
            } else if (location.offset() >= logEnd) {
                reads.put(location, new SourceRead.NotThere(location, SourceRead.Reason.AT_OR_AFTER_LOG_END,
                        "offset " + location.offset() + " is at or after the log end " + logEnd));
            } else {
                open.computeIfAbsent(partition, key -> new TreeSet<>()).add(location.offset());
            }
        }
    }

    private void readRecords() {
        if (open.isEmpty()) {
            return;
        }
        consumer.assign(new ArrayList<>(open.keySet()));
        open.forEach((partition, offsets) -> consumer.seek(partition, offsets.first()));
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            var polled = consumer.poll(SourceRecordReader.POLL);
            for (TopicPartition partition : new ArrayList<>(open.keySet())) {
                NavigableSet<Long> offsets = open.get(partition);
                for (ConsumerRecord<byte[], byte[]> record : polled.records(partition)) {
                    while (!offsets.isEmpty() && offsets.first() <= record.offset()) {
                        RecordLocation location = new RecordLocation(partition.topic(), partition.partition(), offsets.pollFirst());
                        reads.put(location, new SourceRead.Found(location, record));
                    }
                }
                if (offsets.isEmpty()) {
                    open.remove(partition);
                    consumer.pause(List.of(partition));
                } else if (polled.records(partition).isEmpty() && consumer.position(partition, SourceRecordReader.remaining(deadline)) >= logEnds.get(partition)) {
                    for (long offset : offsets) {
                        RecordLocation location = new RecordLocation(partition.topic(), partition.partition(), offset);
                        reads.put(location, new SourceRead.NothingReadable(location, "no committed record from offset " + offset
                                + " to the log end " + logEnds.get(partition)));
                    }
                    open.remove(partition);
                    consumer.pause(List.of(partition));
                } else if (!polled.records(partition).isEmpty()) {
                    consumer.seek(partition, offsets.first()); // skip what lies between this poll's last record and the next open offset
                }
            }
        }
    }
}
