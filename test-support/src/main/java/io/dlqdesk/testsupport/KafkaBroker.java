package io.dlqdesk.testsupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A real Kafka broker that tests (or a local run) can use, stop and start again. */
public interface KafkaBroker extends RestartableServer {

    String bootstrapServers();

    /** An admin client for this broker; the caller closes it. */
    default Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** The group's committed position on a partition, or null when it committed nothing there. */
    default Long committedOffset(String groupId, TopicPartition partition) throws Exception {
        try (Admin admin = admin()) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(partition);
            return offset == null ? null : offset.offset();
        }
    }
}
