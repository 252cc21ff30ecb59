package io.dlqdesk.testsupport;

import org.testcontainers.containers.GenericContainer;

/**
 * A server in a Testcontainers container, started at construction. Stop and start pause and unpause it,
 * so that its mapped port stays the same for clients that reconnect.
 */
abstract class PausableContainer<C extends GenericContainer<?>> implements RestartableServer {

    protected final C container;
    private boolean paused;

    PausableContainer(C container) {
        this.container = container;
        container.start();
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
