package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.Ledger;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LedgerTest {

    @Test
    void aNamedLedgerWithAWindowUpToAYearIsAccepted() {
        assertThat(new Ledger("desk", Duration.ofDays(365)).replayWindow()).isEqualTo(Duration.ofDays(365));
        assertThat(new Ledger("desk", Duration.ofSeconds(1)).name()).isEqualTo("desk");
    }

    @Test
    void aBlankNameIsRefused() {
        assertThatThrownBy(() -> new Ledger(" ", Duration.ofDays(7))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dlqdesk.ledger-name");
    }

    @Test
    void aWindowThatIsNotPositiveOrLongerThanAYearIsRefused() {
        for (Duration window : new Duration[] {Duration.ZERO, Duration.ofSeconds(-1), Duration.ofDays(365).plusSeconds(1)}) {
            assertThatThrownBy(() -> new Ledger("desk", window)).as(window.toString()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("dlqdesk.replay-window");
        }
        assertThatThrownBy(() -> new Ledger("desk", null)).isInstanceOf(NullPointerException.class);
    }
}
