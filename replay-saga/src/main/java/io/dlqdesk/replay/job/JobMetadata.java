package io.dlqdesk.replay.job;

/**
 * The metadata key naming the replay job on a replay request it made. Axon copies it from the command onto the events
 * the request appends (a correlation data provider), so the incident's own history says which job asked it: that is
 * how a runner resuming after a crash tells an incident it asked from one it only claimed.
 */
public final class JobMetadata {

    public static final String KEY = "dlqdesk-replay-job";

    private JobMetadata() {
    }
}
