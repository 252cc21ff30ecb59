package io.dlqdesk.testsupport;

import org.testcontainers.containers.GenericContainer;

/** Stop and start for a container as pause and unpause: its mapped port stays the same for clients. */
final class ContainerPause {

    private final GenericContainer<?> container;
    private boolean paused;

    ContainerPause(GenericContainer<?> container) {
        this.container = container;
    }

    synchronized void pause() {
        if (!paused) {
            container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
            paused = true;
        }
    }

    synchronized void unpause() {
        if (paused) {
            container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
            paused = false;
        }
    }
}
