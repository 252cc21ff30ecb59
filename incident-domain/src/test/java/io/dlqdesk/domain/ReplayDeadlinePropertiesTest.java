package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.axonframework.test.aggregate.AggregateTestFixture;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.dlqdesk.domain.Samples.DETECTED;
import static io.dlqdesk.domain.Samples.POLICY;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.requestReplay;

/** For any original timestamp and window, replay is allowed exactly while now < timestamp + window. */
class ReplayDeadlinePropertiesTest {

    private static final long DAY = 86_400_000L;

    /** Milliseconds from the deadline: often right at it, where an off-by-one would show. */
    @Provide
    Arbitrary<Long> aroundTheDeadline() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-2, 2), Arbitraries.longs().between(-400 * DAY, 400 * DAY));
    }

    @Property(tries = 100)
    void replayIsAllowedExactlyBeforeTheOriginalTimestampPlusTheWindow(
            @ForAll @LongRange(min = 0, max = 4_102_444_800_000L) long timestampMillis,
            @ForAll @LongRange(min = 1, max = 365 * DAY) long windowMillis,
            @ForAll("aroundTheDeadline") long nowFromDeadline) {
        OriginalTimestamp timestamp = OriginalTimestamp.ofEpochMilli(timestampMillis, TimestampType.CREATE_TIME);
        FailedRecord root = new FailedRecord(ROOT.failureKey(), ROOT.dlqLocation(), ROOT.key(), ROOT.eventId(), timestamp,
                ROOT.valueHash(), null);
        Instant deadline = Instant.ofEpochMilli(timestampMillis + windowMillis);
        Instant now = deadline.plusMillis(nowFromDeadline);
        ReplayOutcome expected = nowFromDeadline < 0
                ? ReplayOutcome.requested(1)
                : ReplayOutcome.rejected(List.of(ReplayRefusal.AFTER_DEADLINE));

        var fixture = new AggregateTestFixture<>(Incident.class);
        fixture.givenCommands(OpenIncidentCommand.forFailure(root, Duration.ofMillis(windowMillis), DETECTED))
                .when(requestReplay(SourceRecordFacts.found(ROOT.failureKey().location(), ROOT.failureKey().offset(), ROOT.key(),
                        ROOT.eventId(), ROOT.valueHash(), timestamp), POLICY, true, now))
                .expectResultMessagePayload(expected);
    }
}
