package io.dlqdesk.testsupport;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** Apache Kafka (KRaft) in a Testcontainers container; stop and start pause and unpause it. */
final class ContainerKafkaBroker implements KafkaBroker {

    private final KafkaContainer container;
    private boolean paused;

    ContainerKafkaBroker() {
        container = new KafkaContainer(DockerImageName.parse("apache/kafka:3.9.1"));
        container.start();
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
    public synchronized void start() {
        if (paused) {
            container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
            paused = false;
        }
    }

    @Override
    public synchronized void stop() {
        if (!paused) {
            container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
            paused = true;
        }
    }
}
