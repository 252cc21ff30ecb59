package io.dlqdesk.rebuild;

import io.dlqdesk.parked.ParkingPolicy;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fold parks as the processor's dead-letter queue does: an event its group keeps failing on is parked once the policy's
 * attempts are used up, the group's later events of the same aggregate wait behind it, and every other aggregate is
 * applied; without a failing event everything is applied and nothing parked.
 */
class EventFoldTest {

    private static final int ATTEMPTS = 3;

    /** A group's handler: applies text payloads, fails on the poisoned ones. */
    static final class Recorder {
        final List<String> applied = new ArrayList<>();
        final Set<String> poison;

        Recorder(Set<String> poison) {
            this.poison = poison;
        }

        @EventHandler
        void on(String payload) {
            if (poison.contains(payload)) {
                throw new IllegalStateException("cannot apply " + payload);
            }
            applied.add(payload);
        }
    }

    @Test
    void anEventTheGroupCannotApplyIsParkedWithItsAggregatesLaterEventsAndTheRestIsApplied() throws Exception {
        Recorder recorder = new Recorder(Set.of("a1"));
        EventFold fold = fold(recorder);

        fold.apply(List.of(event("A", 0, "a1"), event("B", 0, "b1"), event("A", 1, "a2"), event("C", 0, "c1")));

        assertThat(recorder.applied).contains("b1", "c1").doesNotContain("a1", "a2");
        assertThat(fold.parked()).extracting(parked -> (Object) parked.letter().message().getPayload()).containsExactly("a1", "a2");
        assertThat(fold.parked()).allSatisfy(parked -> assertThat(parked.sequence()).isEqualTo("A"));
        assertThat(fold.parked().get(0).letter().cause()).isPresent();
        assertThat(fold.parked().get(1).letter().cause()).as("it waits behind a1, it never failed itself").isEmpty();
        assertThat(fold.announcements()).hasSize(1);
        assertThat(fold.announcements().get(0).event().eventIdentifier()).isEqualTo(fold.parked().get(0).letter().message().getIdentifier());

        // a later chunk: the aggregate stays held back, the others flow
        fold.apply(List.of(event("A", 2, "a3"), event("B", 1, "b2")));
        assertThat(recorder.applied).contains("b2").doesNotContain("a3");
        assertThat(fold.parked()).extracting(parked -> (Object) parked.letter().message().getPayload()).containsExactly("a1", "a2", "a3");
    }

    @Test
    void withoutAFailingEventEverythingIsAppliedInOrderAndNothingParked() throws Exception {
        Recorder recorder = new Recorder(Set.of());
        EventFold fold = fold(recorder);

        fold.apply(List.of(event("A", 0, "a1"), event("B", 0, "b1"), event("A", 1, "a2")));

        assertThat(recorder.applied).containsExactly("a1", "b1", "a2");
        assertThat(fold.parked()).isEmpty();
        assertThat(fold.announcements()).isEmpty();
    }

    private static EventFold fold(Recorder recorder) {
        return new EventFold("test-group", new AnnotationEventHandlerAdapter(recorder), NoTransactionManager.instance(),
                new ParkingPolicy(ATTEMPTS, Clock.systemUTC()));
    }

    private static EventMessage<?> event(String aggregate, long sequence, String payload) {
        return new GenericDomainEventMessage<>("Incident", aggregate, sequence, payload);
    }
}
