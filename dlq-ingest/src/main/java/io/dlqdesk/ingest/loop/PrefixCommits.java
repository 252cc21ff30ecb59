package io.dlqdesk.ingest.loop;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * Commits, on the loop thread, the end of each partition's completed prefix. A commit that failed for now is tried again
 * next round; one the group refused is not: those partitions are someone else's now, and their records come again there.
 */
final class PrefixCommits {

    private static final Logger log = LoggerFactory.getLogger(PrefixCommits.class);

    private final PartitionStates partitions;
    private final Duration timeout;

    PrefixCommits(PartitionStates partitions, Duration timeout) {
        this.partitions = partitions;
        this.timeout = timeout;
    }

    void commit(Consumer<byte[], byte[]> consumer, Collection<TopicPartition> which) {
        Map<TopicPartition, OffsetAndMetadata> offsets = partitions.toCommit(which);
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, timeout);
            partitions.committed(offsets);
        } catch (RetriableCommitFailedException | TimeoutException | RebalanceInProgressException e) {
            log.warn("commit of {} failed, retrying on the next round: {}", offsets, e.toString());
        } catch (CommitFailedException e) {
            log.warn("commit of {} refused by the group: {}", offsets, e.toString());
        }
    }
}
