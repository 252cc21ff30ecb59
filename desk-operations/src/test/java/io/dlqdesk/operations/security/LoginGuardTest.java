package io.dlqdesk.operations.security;

import io.dlqdesk.testsupport.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class LoginGuardTest {

    private final TestClock clock = TestClock.at(Instant.parse("2026-11-30T12:00:00Z"));
    private final LoginGuard guard = new LoginGuard(new SecurityProperties.Logins(3, 5, Duration.ofMinutes(1), 2, 1, Duration.ofMillis(10), 0),
            name -> name.equals("alice") || name.equals("admin"), clock);

    @Test
    void aUserIsRefusedAfterItsFailuresUntilTheWindowEnds() {
        for (int i = 0; i < 2; i++) {
            guard.failed("alice", "10.0.0." + i);
        }
        assertThat(guard.blockedFor("alice", "10.0.0.9")).isEmpty();
        guard.failed("alice", "10.0.0.3");
        assertThat(guard.blockedFor("alice", "10.0.0.9")).hasValue(Duration.ofMinutes(1));
        assertThat(guard.blockedFor("bob", "10.0.0.9")).as("another user from another address").isEmpty();
        clock.advance(Duration.ofMinutes(1));
        assertThat(guard.blockedFor("alice", "10.0.0.9")).isEmpty();
    }

    @Test
    void anAddressIsRefusedAfterItsFailuresWhateverTheUserName() {
        for (int i = 0; i < 5; i++) {
            guard.failed("user" + i, "10.0.0.1");
        }
        assertThat(guard.blockedFor("someone-new", "10.0.0.1")).isPresent();
        assertThat(guard.blockedFor("someone-new", "10.0.0.2")).isEmpty();
    }

    /** Spring Security finds {@code Admin} as {@code admin}: every spelling that reaches one user is one count. */
    @Test
    void oneUserIsOneCountWhateverItsCaseSpacesOrCompatibilityForm() {
        guard.failed("Admin", "10.0.0.1");
        guard.failed("admin ", "10.0.0.2");
        assertThat(guard.blockedFor("admin", "10.0.0.9")).isEmpty();
        guard.failed("\uFF21\uFF24\uFF2D\uFF29\uFF2E", "10.0.0.3"); // fullwidth ADMIN
        assertThat(guard.blockedFor("ADMIN", "10.0.0.9")).as("three failures of one user").isPresent();
        assertThat(guard.blockedFor(" aDmIn\t", "10.0.0.9")).isPresent();
        assertThat(guard.blockedFor("admin2", "10.0.0.9")).as("another user").isEmpty();
        assertThat(guard.blockedFor("adm in", "10.0.0.9")).as("a space inside is another name").isEmpty();
    }

    @Test
    void passwordChecksAreBoundedAndAReleasedPermitIsReusable() throws Exception {
        LoginGuard.Permit first = guard.tryAcquireCheck("alice").orElseThrow();
        assertThat(guard.tryAcquireCheck("alice")).isPresent();
        assertThat(guard.tryAcquireCheck("alice")).as("a third check at once, with no request allowed to wait").isEmpty();
        first.release();
        first.release(); // a second release gives nothing back twice
        assertThat(guard.tryAcquireCheck("alice")).isPresent();
        assertThat(guard.tryAcquireCheck("alice")).as("one permit was given back, once").isEmpty();
    }

    /** Random user names (no such user) have their own permits: a flood of them leaves the known users' checks free. */
    @Test
    void unknownUserNamesCannotTakeTheKnownUsersChecks() throws Exception {
        LoginGuard.Permit unknown = guard.tryAcquireCheck("x7f3").orElseThrow();
        assertThat(guard.tryAcquireCheck("zz-" + System.nanoTime())).as("the unknown names' only permit is taken").isEmpty();
        assertThat(guard.tryAcquireCheck("Alice")).as("a known user still gets a check").isPresent();
        assertThat(guard.tryAcquireCheck("admin")).isPresent();
        unknown.release();
        assertThat(guard.tryAcquireCheck("zz-1")).isPresent();
    }

    @Test
    void aBoundedNumberOfRequestsWaitForACheckAndTheNextIsRefusedWithoutWaiting() throws Exception {
        LoginGuard oneWaits = new LoginGuard(new SecurityProperties.Logins(3, 5, Duration.ofMinutes(1), 1, 1, Duration.ofSeconds(5), 1),
                name -> true, clock);
        LoginGuard.Permit held = oneWaits.tryAcquireCheck("alice").orElseThrow();
        java.util.concurrent.CompletableFuture<Boolean> waiter = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return oneWaits.tryAcquireCheck("alice").isPresent();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await(() -> oneWaits.waitingForPermit() == 1);
        long start = System.nanoTime();
        assertThat(oneWaits.tryAcquireCheck("alice")).as("a second waiter").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        held.release();
        assertThat(waiter.get(5, java.util.concurrent.TimeUnit.SECONDS)).as("the waiter got the released permit").isTrue();
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(condition.getAsBoolean()).isTrue();
    }

    @Test
    void trackedNamesStayBounded() {
        for (int i = 0; i < LoginGuard.MAX_TRACKED + 10; i++) {
            guard.failed("u" + i, "10.0.0.1");
        }
        assertThat(guard.blockedFor("u" + (LoginGuard.MAX_TRACKED + 9), "10.9.9.9")).isEmpty();
    }

    @Test
    void userNamesAreLoggedAsShortPrintableAscii() {
        assertThat(LoginThrottle.printable("admın\n" + "x".repeat(100))).startsWith("adm?n?x").hasSize(65);
    }
}
