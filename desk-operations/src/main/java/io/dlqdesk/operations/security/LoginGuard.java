package io.dlqdesk.operations.security;

import java.text.Normalizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Bounds what wrong passwords can cost: a user name or client address with {@code max} failures in the
 * current window is refused before any hash is computed, and at most a fixed number of password checks
 * (bcrypt: CPU by design) run at once, with a bounded number of requests waiting for one (a waiting request
 * holds a server thread, and the probes need threads too). Names no user has draw on permits of their own, so that a
 * flood of invented names (each checked against a dummy hash, as long as a real check) cannot starve the real users.
 * Owns the failure windows and the check permits; a permit is acquired in {@link #tryAcquireCheck} and given back by
 * its {@link Permit#release()}, nowhere else.
 */
public final class LoginGuard {

    /** Beyond this many tracked keys, expired windows are dropped; if that is not enough, all are (memory stays bounded). */
    static final int MAX_TRACKED = 100_000;

    private record Window(Instant start, int failures) {
    }

    /** A password-check permit, given back at most once. */
    interface Permit {
        void release();
    }

    /** Permits for one kind of name, and the requests waiting for one. */
    private final class Checks {
        private final Semaphore permits;
        private final AtomicInteger waiting = new AtomicInteger();

        Checks(int permits) {
            this.permits = new Semaphore(permits);
        }

        Optional<Permit> tryAcquire() throws InterruptedException {
            if (permits.tryAcquire()) {
                return Optional.of(permit());
            }
            if (waiting.incrementAndGet() > settings.maxWaitingPasswordChecks()) {
                waiting.decrementAndGet();
                return Optional.empty();
            }
            try {
                return permits.tryAcquire(settings.passwordCheckWait().toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(permit()) : Optional.empty();
            } finally {
                waiting.decrementAndGet();
            }
        }

        private Permit permit() {
            AtomicBoolean held = new AtomicBoolean(true);
            return () -> {
                if (held.compareAndSet(true, false)) {
                    permits.release();
                }
            };
        }
    }

    private final SecurityProperties.Logins settings;
    private final Predicate<String> knownUser;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final Checks knownUsers;
    private final Checks unknownUsers;

    /**
     * @param knownUser whether a user with this {@linkplain #key normalised} name exists
     */
    LoginGuard(SecurityProperties.Logins settings, Predicate<String> knownUser, Clock clock) {
        this.settings = settings;
        this.knownUser = knownUser;
        this.clock = clock;
        this.knownUsers = new Checks(settings.maxConcurrentPasswordChecks());
        this.unknownUsers = new Checks(settings.maxConcurrentUnknownUserChecks());
    }

    /**
     * The one key of a user name however it is spelt: compatibility forms folded (NFKC: fullwidth letters, ligatures),
     * surrounding white space dropped, case folded; bounded like every value from outside.
     */
    static String key(String name) {
        if (name == null) {
            return "";
        }
        String bounded = name.length() > 256 ? name.substring(0, 256) : name;
        String folded = Normalizer.normalize(bounded, Normalizer.Form.NFKC).strip().toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        return folded.length() > 64 ? folded.substring(0, 64) : folded;
    }

    /** How long this user, or this address, must wait before a password is checked again; empty when it may try now. */
    Optional<Duration> blockedFor(String user, String address) {
        Instant now = clock.instant();
        return longest(blocked("user:" + key(user), settings.maxFailuresPerUser(), now), blocked("address:" + address, settings.maxFailuresPerAddress(), now));
    }

    /** How long this address must wait before any credential of it is checked again; empty when it may try now. */
    public Optional<Duration> addressBlockedFor(String address) {
        return blocked("address:" + address, settings.maxFailuresPerAddress(), clock.instant());
    }

    /** A credential without a user name (a service token) that was not accepted. */
    public void failedFromAddress(String address) {
        Instant now = clock.instant();
        keepBounded(now);
        count("address:" + address, now);
    }

    /** A failed password check (Spring Security's authentication failure event). */
    void failed(String user, String address) {
        Instant now = clock.instant();
        keepBounded(now);
        count("user:" + key(user), now);
        count("address:" + address, now);
    }

    /**
     * A permit to check this user's password, from the known users' permits or the unknown names' ones: at once if one
     * is free, else after waiting at most {@code passwordCheckWait} — but only {@code maxWaitingPasswordChecks} requests
     * wait for each kind (each holds a request thread); beyond that, none.
     */
    Optional<Permit> tryAcquireCheck(String user) throws InterruptedException {
        return (knownUser.test(key(user)) ? knownUsers : unknownUsers).tryAcquire();
    }

    int waitingForPermit() {
        return knownUsers.waiting.get() + unknownUsers.waiting.get();
    }

    private void keepBounded(Instant now) {
        if (windows.size() >= MAX_TRACKED) {
            windows.values().removeIf(window -> expired(window, now));
            if (windows.size() >= MAX_TRACKED) {
                windows.clear();
            }
        }
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
