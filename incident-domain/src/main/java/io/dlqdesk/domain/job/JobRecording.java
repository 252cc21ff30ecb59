package io.dlqdesk.domain.job;

/** What recording a fact on a replay job did: a runner that repeats itself after a restart gets ALREADY_RECORDED, nothing counted twice. */
public enum JobRecording {
    RECORDED,
    ALREADY_RECORDED
}
