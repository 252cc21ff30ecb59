package io.dlqdesk.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds what wrong passwords can cost: a user name or client address with {@code max} failures in the
 * current window is refused before any hash is computed, and at most a fixed number of password checks
 * (bcrypt: CPU by design) run at once, with a bounded number of requests waiting for one (a waiting request
 * holds a server thread, and the probes need threads too). Owns the failure windows and the check permits; the permit is
 * acquired in {@link #tryAcquireCheck} and released in {@link #releaseCheck}, nowhere else.
 */
final class LoginGuard {

    /** Beyond this many tracked keys, expired windows are dropped; if that is not enough, all are (memory stays bounded). */
    static final int MAX_TRACKED = 100_000;

    private record Window(Instant start, int failures) {
    }

    private final SecurityProperties.Logins settings;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final Semaphore checks;
    private final AtomicInteger waiting = new AtomicInteger();

    LoginGuard(SecurityProperties.Logins settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.checks = new Semaphore(settings.maxConcurrentPasswordChecks());
    }

    /** How long this user, or this address, must wait before a password is checked again; empty when it may try now. */
    Optional<Duration> blockedFor(String user, String address) {
        Instant now = clock.instant();
        return longest(blocked("user:" + user, settings.maxFailuresPerUser(), now), blocked("address:" + address, settings.maxFailuresPerAddress(), now));
    }

    /** A failed password check (Spring Security's authentication failure event). */
    void failed(String user, String address) {
        Instant now = clock.instant();
        if (windows.size() >= MAX_TRACKED) {
            windows.values().removeIf(window -> expired(window, now));
            if (windows.size() >= MAX_TRACKED) {
                windows.clear();
            }
        }
        count("user:" + user, now);
        count("address:" + address, now);
    }

    /**
     * A permit to check a password: at once if one is free, else after waiting at most {@code passwordCheckWait} —
     * but only {@code maxWaitingPasswordChecks} requests wait (each holds a request thread); beyond that, no.
     */
    boolean tryAcquireCheck() throws InterruptedException {
        if (checks.tryAcquire()) {
            return true;
        }
        if (waiting.incrementAndGet() > settings.maxWaitingPasswordChecks()) {
            waiting.decrementAndGet();
            return false;
        }
        try {
            return checks.tryAcquire(settings.passwordCheckWait().toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            waiting.decrementAndGet();
        }
    }

    int waitingForPermit() {
        return waiting.get();
    }

    void releaseCheck() {
        checks.release();
    }

    private void count(String key, Instant now) {
        windows.compute(key, (k, window) -> window == null || expired(window, now) ? new Window(now, 1) : new Window(window.start(), window.failures() + 1));
    }

    private Optional<Duration> blocked(String key, int max, Instant now) {
        Window window = windows.get(key);
        if (window == null || expired(window, now) || window.failures() < max) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, window.start().plus(settings.window())));
    }

    private boolean expired(Window window, Instant now) {
        return !now.isBefore(window.start().plus(settings.window()));
    }

    private static Optional<Duration> longest(Optional<Duration> a, Optional<Duration> b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isPresent() && b.get().compareTo(a.get()) > 0 ? b : a;
    }
}
