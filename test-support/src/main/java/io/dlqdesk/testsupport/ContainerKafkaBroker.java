package io.dlqdesk.testsupport;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** Apache Kafka (KRaft) in a Testcontainers container; stop and start pause and unpause it. */
final class ContainerKafkaBroker implements KafkaBroker {

    private final KafkaContainer container;
    private final ContainerPause pause;

    ContainerKafkaBroker() {
        container = new KafkaContainer(DockerImageName.parse("apache/kafka:3.9.1"));
        container.start();
        pause = new ContainerPause(container);
    }

    @Override
    public String description() {
        return "Kafka 3.9.1 container (Testcontainers) at " + bootstrapServers();
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public boolean restartable() {
        return true;
    }

    @Override
    public void start() {
        pause.unpause();
    }

    @Override
    public void stop() {
        pause.pause();
    }
}
