package io.dlqdesk.rollback.check;

import io.dlqdesk.rollback.RollbackProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class LedgerReaderTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private final FakeLedger ledger = new FakeLedger();
    private final BoundedReads reads = new BoundedReads();
    private final List<Duration> slept = new ArrayList<>();

    @AfterEach
    void closeReads() {
        reads.close();
    }

    @Test
    void readsTheOutboxTheReadModelAndTheFacts() throws Exception {
        ledger.pending = 2;

        LedgerReader.Readings readings = reader(Duration.ZERO).read();

        assertThat(readings.pendingOutboxRows().value()).isEqualTo(2L);
        assertThat(readings.readModel().value()).isEqualTo(new ReadModelState(10, 10L, true));
        assertThat(readings.facts().value()).isSameAs(ledger.facts);
        assertThat(ledger.factReads).isEqualTo(1);
    }

    @Test
    void aDatabaseThatDidNotAnswerOnceIsNotAskedAgain() throws Exception {
        ledger.failing = true;

        LedgerReader.Readings readings = reader(Duration.ZERO).read();

        assertThat(readings.pendingOutboxRows().error()).startsWith("database could not be read");
        assertThat(readings.readModel().error()).isEqualTo(readings.pendingOutboxRows().error());
        assertThat(readings.facts().error()).isEqualTo(readings.pendingOutboxRows().error());
        assertThat(ledger.factReads).isZero();
    }

    @Test
    void aReadModelBehindIsWaitedForUntilTheWaitEnds() throws Exception {
        ledger.head = 12;
        ledger.position = OptionalLong.of(11);

        LedgerReader.Readings readings = reader(Duration.ofMillis(300)).read();

        assertThat(readings.readModel().value()).isEqualTo(new ReadModelState(12, 11L, false));
        assertThat(slept).isNotEmpty().containsOnly(Duration.ofMillis(200));
    }

    @Test
    void aReadModelThatCatchesUpIsNotWaitedFor() throws Exception {
        ledger.head = -1; // an empty event store: nothing to catch up with
        ledger.position = OptionalLong.empty();

        LedgerReader.Readings readings = reader(Duration.ofSeconds(30)).read();

        assertThat(readings.readModel().value()).isEqualTo(new ReadModelState(-1, null, true));
        assertThat(slept).isEmpty();
    }

    private LedgerReader reader(Duration readModelWait) {
        RollbackProperties settings = new RollbackProperties(Duration.ofSeconds(7), Duration.ofSeconds(60),
                Duration.ofSeconds(30), Duration.ofSeconds(10), readModelWait, Duration.ofSeconds(5), false);
        return new LedgerReader(ledger, reads, settings, Clock.fixed(NOW, ZoneOffset.UTC), duration -> {
            synchronized (slept) {
                slept.add(duration);
            }
            Thread.sleep(duration.toMillis());
        });
    }
}
