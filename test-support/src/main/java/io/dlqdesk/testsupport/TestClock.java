package io.dlqdesk.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock a test moves: one that stands still at an instant until moved ({@link #at}), or the system's time shifted
 * by an offset ({@link #systemShifted}), for a service whose own threads must see time pass while a test steps past a bound.
 */
public final class TestClock extends Clock {

    private final boolean ticking;
    private volatile Instant fixed;
    private volatile Duration shift = Duration.ZERO;

    private TestClock(boolean ticking, Instant fixed) {
        this.ticking = ticking;
        this.fixed = fixed;
    }

    /** Stands at {@code start} until moved. */
    public static TestClock at(Instant start) {
        return new TestClock(false, start);
    }

    /** The system's time, plus whatever the test shifts it by. */
    public static TestClock systemShifted() {
        return new TestClock(true, null);
    }

    /** Moves the clock on by {@code duration}. */
    public void advance(Duration duration) {
        if (ticking) {
            shift = shift.plus(duration);
        } else {
            fixed = fixed.plus(duration);
        }
    }

    /** The system's time shifted by {@code offset} from now on (a ticking clock only). */
    public void shift(Duration offset) {
        if (!ticking) {
            throw new IllegalStateException("a clock standing at an instant is moved with advance or set");
        }
        shift = offset;
    }

    /** Stands at {@code instant} (a standing clock only). */
    public void set(Instant instant) {
        if (ticking) {
            throw new IllegalStateException("a ticking clock is moved with shift or advance");
        }
        fixed = instant;
    }

    @Override
    public Instant instant() {
        return ticking ? Instant.now().plus(shift) : fixed;
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
