package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.record.FailureKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class IncidentIdTest {

    private static final FailureKey KEY = Samples.ROOT_KEY;

    @Test
    void theSameFailureKeyAlwaysGivesTheSameId() {
        assertThat(IncidentId.of(new FailureKey("orders", 3, 42L, "billing"))).isEqualTo(IncidentId.of(KEY));
    }

    @Test
    void everyPartOfTheFailureKeyChangesTheId() {
        assertThat(IncidentId.of(KEY))
                .isNotEqualTo(IncidentId.of(new FailureKey("orders2", 3, 42L, "billing")))
                .isNotEqualTo(IncidentId.of(new FailureKey("orders", 4, 42L, "billing")))
                .isNotEqualTo(IncidentId.of(new FailureKey("orders", 3, 43L, "billing")))
                .isNotEqualTo(IncidentId.of(new FailureKey("orders", 3, 42L, "shipping")));
    }

    @Test
    void fieldBoundariesCannotBeShiftedToCollide() {
        // "1" + "23" versus "12" + "3" must not encode the same way
        assertThat(IncidentId.of(new FailureKey("t", 1, 23L, "g")))
                .isNotEqualTo(IncidentId.of(new FailureKey("t", 12, 3L, "g")));
    }

    @Test
    void aDerivedIdParsesBackToItself() {
        IncidentId id = IncidentId.of(KEY);
        assertThat(id.value()).matches("inc-[0-9a-f]{32}");
        assertThat(IncidentId.parse(id.toString())).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "inc-", "inc-0123", "INC-0123456789abcdef0123456789abcdef",
            "inc-0123456789ABCDEF0123456789ABCDEF", "inc-0123456789abcdef0123456789abcdef0",
            "inc-0123456789abcdef0123456789abcdeg", "../inc-0123456789abcdef0123456789abcdef",
            "inc-0123456789abcdef0123456789abcdef/../x", " inc-0123456789abcdef0123456789abcdef"})
    void theParserRejectsAnythingElse(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> IncidentId.parse(text));
    }

    @Test
    void aCommandRefusesAnIdThatWasNotDerivedFromItsKey() {
        IncidentId other = IncidentId.of(new FailureKey("orders", 3, 43L, "billing"));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OpenIncidentCommand(other, Samples.ROOT, Duration.ofDays(7), Instant.EPOCH, List.of()))
                .withMessageContaining("not the one derived");
    }

    @Test
    void aReplayIdNamesTheIncidentAndTheAttemptAndTheEventsOfThatAttemptShareIt() {
        IncidentId id = IncidentId.of(KEY);
        assertThat(id.replayId(2)).isEqualTo(id.value() + "/2").isNotEqualTo(id.replayId(1));
        assertThatIllegalArgumentException().isThrownBy(() -> id.replayId(0));
        var action = new io.dlqdesk.domain.incident.OperatorAction("alice", "gone", Instant.EPOCH);
        assertThat(new io.dlqdesk.domain.api.PublishMarkedUnknown(id, 2, KEY, action).replayId()).isEqualTo(id.replayId(2));
        assertThat(new io.dlqdesk.domain.api.PublishResultRecorded(id, 3, KEY,
                io.dlqdesk.domain.replay.PublishResult.failed("x", Instant.EPOCH)).replayId()).isEqualTo(id.replayId(3));
        assertThat(new io.dlqdesk.domain.api.ReplayRequested(id, 4, KEY, KEY.location(), "g", io.dlqdesk.domain.record.RecordKey.NONE,
                null, null, null, null, "ledger", action).replayId()).isEqualTo(id.replayId(4));
    }
}
