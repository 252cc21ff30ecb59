package io.dlqdesk.testsupport;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** Apache Kafka (KRaft) in a Testcontainers container, used where a Docker engine answers. */
final class ContainerKafkaBroker extends PausableContainer<KafkaContainer> implements KafkaBroker {

    ContainerKafkaBroker() {
        super(new KafkaContainer(DockerImageName.parse("apache/kafka:3.9.1")));
    }

    @Override
    public String description() {
        return "Kafka 3.9.1 container (Testcontainers) at " + bootstrapServers();
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }
}
