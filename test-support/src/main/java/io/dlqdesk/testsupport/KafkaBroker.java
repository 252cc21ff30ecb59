package io.dlqdesk.testsupport;

/** A real Kafka broker that tests (or a local run) can use, stop and start again. */
public interface KafkaBroker {

    String description();

    String bootstrapServers();

    /** Whether {@link #stop()} and {@link #start()} are supported; the address stays the same across them. */
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
