package io.dlqdesk.retention;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RetentionBudgetTest {

    private static final Duration WEEK = Duration.ofDays(7);

    @Test
    void aWindowWithBothMarginsInsideTheIdempotencyRetentionIsAccepted() {
        assertThat(new RetentionBudget(WEEK, Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofDays(8)).violations()).isEmpty();
    }

    @Test
    void exactlyFillingTheIdempotencyRetentionIsAccepted() {
        assertThat(new RetentionBudget(WEEK, Duration.ofHours(1), Duration.ofHours(1), WEEK.plusHours(2)).violations()).isEmpty();
    }

    @Test
    void aWindowThatWithItsMarginsExceedsTheIdempotencyRetentionIsRefusedNamingEveryProperty() {
        assertThat(new RetentionBudget(WEEK, Duration.ofMinutes(5), Duration.ofHours(1), WEEK).violations()).singleElement()
                .asString()
                .contains("dlqdesk.replay-window=PT168H", "dlqdesk.retention.clock-skew-margin=PT5M",
                        "dlqdesk.retention.cleanup-delay-margin=PT1H", "dlqdesk.retention.consumer-idempotency-retention=PT168H");
    }

    @Test
    void zeroOrNegativeMarginsAreRefusedNamingTheProperty() {
        assertThat(new RetentionBudget(WEEK, Duration.ZERO, Duration.ofHours(1), Duration.ofDays(30)).violations())
                .singleElement().asString().contains("dlqdesk.retention.clock-skew-margin=PT0S must be positive");
        assertThat(new RetentionBudget(WEEK, Duration.ofMinutes(5), Duration.ofHours(-1), Duration.ofDays(30)).violations())
                .singleElement().asString().contains("dlqdesk.retention.cleanup-delay-margin=PT-1H must be positive");
    }

    @Test
    void aMissingOrNonPositiveWindowOrRetentionIsRefused() {
        assertThat(new RetentionBudget(null, Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofDays(30)).violations())
                .singleElement().asString().contains("dlqdesk.replay-window");
        assertThat(new RetentionBudget(WEEK, Duration.ofMinutes(5), Duration.ofHours(1), Duration.ZERO).violations())
                .singleElement().asString().contains("dlqdesk.retention.consumer-idempotency-retention=PT0S must be positive");
    }
}
