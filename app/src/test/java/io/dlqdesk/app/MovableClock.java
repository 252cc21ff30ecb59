package io.dlqdesk.app;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock shifted by an offset a test sets: lets a test step past a time bound without waiting for it. */
final class MovableClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    void shift(Duration offset) {
        this.offset = offset;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
