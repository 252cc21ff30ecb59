package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentStatus;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one batch changes in incident_count, netted per (dimension, value, status): an incident adds one to each of
 * its dimensions (and its {@link #LOCATION}) under its status, and a status change moves that one. An incident opened and resolved in one batch
 * adds nothing under OPEN, so that row is not written at all.
 */
final class CountDeltas {

    private record Key(String dimension, String value, String status) {
    }

    /**
     * Not a dimension the counts API offers: the open-incident gauges' (topic, group) pairs, as topic, a newline, group
     * (a Kafka topic name has no newline, so the first one splits them).
     */
    static final String LOCATION = "LOCATION";

    static String location(String topic, String consumerGroup) {
        return topic + "\n" + consumerGroup;
    }

    /** A {@link #LOCATION} value back as its topic and group. */
    static List<String> topicAndGroup(String location) {
        int split = location.indexOf('\n');
        return List.of(location.substring(0, split), location.substring(split + 1));
    }

    /** Key order is the order rows are written, hence locked: the same in every batch, so two segments cannot deadlock. */
    private static final Comparator<Key> WRITE_ORDER = Comparator.comparing(Key::dimension).thenComparing(Key::value)
            .thenComparing(Key::status);

    private final Map<Key, Long> deltas = new TreeMap<>(WRITE_ORDER);

    void opened(SummaryRow incident) {
        add(incident, incident.status(), 1);
    }

    void statusChanged(SummaryRow incident, IncidentStatus from, IncidentStatus to) {
        add(incident, from, -1);
        add(incident, to, 1);
    }

    /** (dimension, value, status, delta) rows in write order, zeros left out. */
    List<Object[]> rows() {
        return deltas.entrySet().stream().filter(delta -> delta.getValue() != 0)
                .map(delta -> new Object[] {delta.getKey().dimension(), delta.getKey().value(), delta.getKey().status(), delta.getValue()})
                .toList();
    }

    private void add(SummaryRow incident, IncidentStatus status, int delta) {
        add(CountIncidentsQuery.Dimension.TOPIC, incident.topic(), status, delta);
        add(CountIncidentsQuery.Dimension.CONSUMER_GROUP, incident.consumerGroup(), status, delta);
        add(CountIncidentsQuery.Dimension.STATUS, status.name(), status, delta);
        add(CountIncidentsQuery.Dimension.EXCEPTION_GROUP, incident.group().id(), status, delta);
        add(LOCATION, location(incident.topic(), incident.consumerGroup()), status, delta);
    }

    private void add(CountIncidentsQuery.Dimension dimension, String value, IncidentStatus status, int delta) {
        add(dimension.name(), value, status, delta);
    }

    private void add(String dimension, String value, IncidentStatus status, int delta) {
        deltas.merge(new Key(dimension, value, status.name()), (long) delta, Long::sum);
    }
}
