package io.dlqdesk.app;

import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** How a unit of work's events are cut into statements; that they are stored as serialized is IncidentCommandIT's. */
class EventAppendsTest {

    private final JacksonSerializer serializer = JacksonSerializer.defaultSerializer();

    @Test
    void aLargeUnitOfWorkIsCutIntoStatementsOfAtMostMaxRowsInOrder() {
        List<EventAppends.Insert> inserts = EventAppends.inserts(events(2 * EventAppends.MAX_ROWS + 1, 10), serializer);

        assertThat(inserts).extracting(insert -> insert.rows().size()).containsExactly(EventAppends.MAX_ROWS, EventAppends.MAX_ROWS, 1);
        assertThat(inserts.stream().flatMap(insert -> insert.rows().stream()).map(row -> row.event().getSequenceNumber()))
                .containsExactlyElementsOf(IntStream.range(0, 2 * EventAppends.MAX_ROWS + 1).mapToObj(Long::valueOf).toList());
    }

    @Test
    void largeEventsAreCutByTheirBytesAndOneLargerThanTheLimitStandsAlone() {
        int third = EventAppends.MAX_BYTES / 3;
        List<EventMessage<?>> events = new ArrayList<>(events(4, third - 100));
        events.add(event(4, EventAppends.MAX_BYTES + 1));
        events.add(event(5, 10));

        List<EventAppends.Insert> inserts = EventAppends.inserts(events, serializer);

        assertThat(inserts).extracting(insert -> insert.rows().size()).containsExactly(3, 1, 1, 1);
        assertThat(inserts).allSatisfy(insert -> assertThat(insert.rows().size() == 1
                || insert.rows().stream().mapToLong(EventAppends.Row::bytes).sum() <= EventAppends.MAX_BYTES).isTrue());
    }

    @Test
    void aSmallUnitOfWorkIsOneStatement() {
        assertThat(EventAppends.inserts(events(3, 10), serializer)).hasSize(1);
        assertThat(EventAppends.inserts(List.of(), serializer)).isEmpty();
    }

    private static List<EventMessage<?>> events(int count, int payloadLength) {
        return IntStream.range(0, count).<EventMessage<?>>mapToObj(seq -> event(seq, payloadLength)).toList();
    }

    private static EventMessage<?> event(long seq, int payloadLength) {
        return new GenericDomainEventMessage<>("Probe", "probe-1", seq, "x".repeat(payloadLength));
    }
}
