package io.dlqdesk.ingest.loop;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.function.Consumer;

/** What a rebalance does to the loop's partitions. Runs on the loop thread, inside poll (or close). */
final class Rebalance implements ConsumerRebalanceListener {

    private final PartitionStates partitions;
    /** The loop's commit: what the workers reported first, then the completed prefix. */
    private final Consumer<Collection<TopicPartition>> commit;

    Rebalance(PartitionStates partitions, Consumer<Collection<TopicPartition>> commit) {
        this.partitions = partitions;
        this.commit = commit;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
        // commit what the revoked partitions completed; their in-flight work is abandoned and redelivered to the new owner
        commit.accept(revoked);
        partitions.forget(revoked);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
        partitions.assigned(assigned);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lost) {
        partitions.forget(lost);
    }
}
