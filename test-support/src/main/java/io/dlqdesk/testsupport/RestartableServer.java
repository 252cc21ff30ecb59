package io.dlqdesk.testsupport;

/** A real server that tests (or a local run) use; ours to stop and start again when we run it ourselves. */
public interface RestartableServer {

    /** Which server this is and where, for the test log. */
    String description();

    /** Whether {@link #stop()} and {@link #start()} are supported (not for servers we do not own); the address stays the same across them. */
    default boolean restartable() {
        return false;
    }

    default void start() {
        throw new UnsupportedOperationException(description() + " is not ours to start");
    }

    default void stop() {
        throw new UnsupportedOperationException(description() + " is not ours to stop");
    }
}
