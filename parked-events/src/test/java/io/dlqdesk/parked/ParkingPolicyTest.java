package io.dlqdesk.parked;

import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.domain.parked.ParkedEvent;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.messaging.deadletter.GenericDeadLetter;
import org.axonframework.messaging.deadletter.ThrowableCause;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParkingPolicyTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T10:00:00Z"), ZoneOffset.UTC);
    private static final IllegalStateException OWN_FAILURE = new IllegalStateException("no replay attempt before its decision");

    private final List<EventParked> announced = new ArrayList<>();

    @Test
    void anEventIsRetriedWithItsBatchUntilItFailedAsOftenAsAllowedAndThenParked() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(3, CLOCK).forGroup("rollback-facts", announced::add);
        DeadLetter<EventMessage<?>> letter = live("inc-1", "payload");

        assertThatThrownBy(() -> policy.decide(letter, OWN_FAILURE)).isInstanceOf(RetryBatch.class).hasMessageContaining("attempt 1 of 3")
                .hasCause(OWN_FAILURE);
        assertThatThrownBy(() -> policy.decide(letter, OWN_FAILURE)).isInstanceOf(RetryBatch.class).hasMessageContaining("attempt 2 of 3");
        assertThat(announced).isEmpty();

        EnqueueDecision<EventMessage<?>> parked = policy.decide(letter, OWN_FAILURE);

        assertThat(parked.shouldEnqueue()).isTrue();
        assertThat(parked.enqueueCause()).get().isInstanceOfSatisfying(ThrowableCause.class, cause -> {
            assertThat(cause.type()).isEqualTo(IllegalStateException.class.getName());
            assertThat(cause.message()).isEqualTo("no replay attempt before its decision");
        });
        assertThat(parked.withDiagnostics(letter).diagnostics()).containsEntry(ParkingPolicy.ATTEMPTS, 3);
        assertThat(announced).singleElement().satisfies(event -> {
            assertThat(event.event()).isEqualTo(new ParkedEvent("rollback-facts", "inc-1", letter.message().getIdentifier(), String.class.getName()));
            assertThat(event.attempts()).isEqualTo(3);
            assertThat(event.parkedAt()).isEqualTo(CLOCK.instant());
        });
    }

    /** Two culprits in one batch: the later one's failure rolls back the earlier one's parking, which then parks at once. */
    @Test
    void aParkingRolledBackWithItsBatchParksAtOnceWhenTheBatchRunsAgain() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(2, CLOCK).forGroup("incident-summary", announced::add);
        DeadLetter<EventMessage<?>> letter = live("inc-5", "payload");
        assertThatThrownBy(() -> inBatch(() -> policy.decide(letter, OWN_FAILURE), false)).isInstanceOf(RetryBatch.class);
        assertThat(inBatch(() -> policy.decide(letter, OWN_FAILURE), false).shouldEnqueue()).as("parked, then rolled back").isTrue();

        EnqueueDecision<EventMessage<?>> again = inBatch(() -> policy.decide(letter, OWN_FAILURE), true);

        assertThat(again.shouldEnqueue()).as("parked at the first failure of the run after").isTrue();
        assertThat(again.withDiagnostics(letter).diagnostics()).containsEntry(ParkingPolicy.ATTEMPTS, 3);
    }

    /** Once the batch that parked it commits, the count is gone: the same event failing later (a rebuild) is tried again first. */
    @Test
    void aParkingThatCommitsForgetsTheCount() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(2, CLOCK).forGroup("incident-summary", announced::add);
        DeadLetter<EventMessage<?>> letter = live("inc-6", "payload");
        assertThatThrownBy(() -> inBatch(() -> policy.decide(letter, OWN_FAILURE), true)).isInstanceOf(RetryBatch.class);
        assertThat(inBatch(() -> policy.decide(letter, OWN_FAILURE), true).shouldEnqueue()).isTrue();

        assertThatThrownBy(() -> inBatch(() -> policy.decide(letter, OWN_FAILURE), true)).isInstanceOf(RetryBatch.class)
                .hasMessageContaining("attempt 1 of 2");
    }

    /** Runs {@code decision} in a unit of work that then commits or rolls back; what it threw is thrown. */
    private static EnqueueDecision<EventMessage<?>> inBatch(java.util.function.Supplier<EnqueueDecision<EventMessage<?>>> decision, boolean commits) {
        var unitOfWork = org.axonframework.messaging.unitofwork.DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("batch"));
        try {
            EnqueueDecision<EventMessage<?>> decided = decision.get();
            if (commits) {
                unitOfWork.commit();
            } else {
                unitOfWork.rollback();
            }
            return decided;
        } catch (RuntimeException e) {
            unitOfWork.rollback(e);
            throw e;
        }
    }

    @Test
    void withOneAttemptTheFirstFailureParks() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(1, CLOCK).forGroup("incident-summary", announced::add);

        assertThat(policy.decide(live("inc-2", "payload"), OWN_FAILURE).shouldEnqueue()).isTrue();
        assertThat(announced).hasSize(1);
    }

    @Test
    void eachEventCountsItsOwnAttempts() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(2, CLOCK).forGroup("incident-summary", announced::add);
        DeadLetter<EventMessage<?>> first = live("inc-3", "first");
        DeadLetter<EventMessage<?>> second = live("inc-3", "second");

        assertThatThrownBy(() -> policy.decide(first, OWN_FAILURE)).isInstanceOf(RetryBatch.class);
        assertThatThrownBy(() -> policy.decide(second, OWN_FAILURE)).isInstanceOf(RetryBatch.class);
        assertThat(policy.decide(first, OWN_FAILURE).shouldEnqueue()).isTrue();
    }

    @Test
    void aFailureNotTheEventsOwnRunsTheBatchAgainWithoutCounting() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(2, CLOCK).forGroup("incident-summary", announced::add);
        DeadLetter<EventMessage<?>> letter = live("inc-4", "payload");
        CannotGetJdbcConnectionException databaseAway = new CannotGetJdbcConnectionException("no connection", new SQLException("down"));

        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> policy.decide(letter, databaseAway)).isInstanceOf(RetryBatch.class).hasCause(databaseAway);
        }
        RetryBatch marked = new RetryBatch("culprits marked", OWN_FAILURE);
        assertThatThrownBy(() -> policy.decide(letter, marked)).isSameAs(marked);
        // its own failures still start at one
        assertThatThrownBy(() -> policy.decide(letter, OWN_FAILURE)).isInstanceOf(RetryBatch.class).hasMessageContaining("attempt 1 of 2");
        assertThat(announced).isEmpty();
    }

    @Test
    void aParkedEventThatFailsItsRetryStaysParkedWithOneAttemptMore() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(3, CLOCK).forGroup("incident-summary", announced::add);
        JdbcDeadLetter<EventMessage<?>> stored = new JdbcDeadLetter<>("id-1", 1, "inc-5", CLOCK.instant(), CLOCK.instant(),
                new ThrowableCause("x", "y"), MetaData.with(ParkingPolicy.ATTEMPTS, 3), GenericEventMessage.asEventMessage("payload"));

        EnqueueDecision<EventMessage<?>> decision = policy.decide(stored, OWN_FAILURE);

        assertThat(decision.shouldEnqueue()).isTrue();
        assertThat(decision.withDiagnostics(stored).diagnostics()).containsEntry(ParkingPolicy.ATTEMPTS, 4);
        assertThat(announced).as("announced once, when it was parked").isEmpty();
    }

    @Test
    void anAnnouncementThatCannotBeHandledIsParkedWithoutAnotherAnnouncement() {
        EnqueuePolicy<EventMessage<?>> policy = new ParkingPolicy(1, CLOCK).forGroup("incident-notifications", announced::add);
        EventParked announcement = new EventParked(new ParkedEvent("g", "s", "e", "t"), "x", null, 1, CLOCK.instant());

        assertThat(policy.decide(new GenericDeadLetter<>("s", GenericEventMessage.asEventMessage(announcement)), OWN_FAILURE).shouldEnqueue())
                .isTrue();
        assertThat(announced).isEmpty();
    }

    @Test
    void theCauseKeepsTheDeepestMessageCutToItsColumn() {
        Exception wrapped = new RuntimeException("INSERT INTO incident_summary ... " + "x".repeat(5000),
                new SQLException("Data too long for column 'consumer_group' at row 1"));

        ThrowableCause cause = ParkingPolicy.cause(wrapped);

        assertThat(cause.type()).isEqualTo(RuntimeException.class.getName());
        assertThat(cause.message()).isEqualTo("java.sql.SQLException: Data too long for column 'consumer_group' at row 1");
        ThrowableCause longOne = ParkingPolicy.cause(new IllegalStateException("y".repeat(5000)));
        assertThat(longOne.message()).hasSize(EventParked.MAX_CAUSE_MESSAGE_LENGTH);
    }

    private static DeadLetter<EventMessage<?>> live(String sequence, Object payload) {
        return new GenericDeadLetter<>(sequence, GenericEventMessage.asEventMessage(payload));
    }
}
