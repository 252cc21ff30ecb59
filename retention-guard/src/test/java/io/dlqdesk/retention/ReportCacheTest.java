package io.dlqdesk.retention;

import io.dlqdesk.testsupport.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ReportCacheTest {

    private static final Set<String> TOPICS = Set.of("orders", "payments");

    private final TestClock clock = TestClock.at(Instant.parse("2026-12-06T08:00:00Z"));
    private final AtomicInteger made = new AtomicInteger();

    private ReportCache cache(Duration ttl) {
        return new ReportCache(ttl, clock, topics -> {
            made.incrementAndGet();
            return new RetentionGuard.RetentionReport(clock.instant(), "PT168H", List.of());
        });
    }

    @Test
    void viewersWithinTheTtlGetTheLastReportWithoutAskingTheBrokersAgain() {
        ReportCache cache = cache(Duration.ofMinutes(1));
        RetentionGuard.RetentionReport first = cache.current(TOPICS);
        clock.advance(Duration.ofSeconds(59));
        for (int i = 0; i < 100; i++) {
            assertThat(cache.current(TOPICS)).isSameAs(first);
        }
        assertThat(made.get()).isEqualTo(1);
    }

    @Test
    void aTopicNewlySeenIsReportedAtOnce() {
        ReportCache cache = cache(Duration.ofMinutes(1));
        RetentionGuard.RetentionReport first = cache.current(TOPICS);
        assertThat(cache.current(Set.of("orders", "payments", "refunds"))).isNotSameAs(first);
        assertThat(made.get()).isEqualTo(2);
    }

    @Test
    void aReportAsOldAsTheTtlIsMadeAgain() {
        ReportCache cache = cache(Duration.ofMinutes(1));
        RetentionGuard.RetentionReport first = cache.current(TOPICS);
        clock.advance(Duration.ofSeconds(60));
        assertThat(cache.current(TOPICS)).isNotSameAs(first);
        assertThat(made.get()).isEqualTo(2);
    }

    @Test
    void aZeroTtlMakesEveryReportAndTheScheduledCheckRefreshesWhatViewersGet() {
        ReportCache uncached = cache(Duration.ZERO);
        uncached.current(TOPICS);
        uncached.current(TOPICS);
        assertThat(made.get()).isEqualTo(2);

        ReportCache cached = cache(Duration.ofHours(1));
        cached.current(TOPICS);
        RetentionGuard.RetentionReport checked = cached.refresh(TOPICS);
        assertThat(cached.current(TOPICS)).isSameAs(checked);
    }
}
