package io.dlqdesk.parked;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.parked.ParkedEventEvicted;
import io.dlqdesk.domain.parked.ParkedEventsRetried;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.SequencedDeadLetterProcessor;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The parked events of every processing group, for operators: listed as summaries from the table, retried through the
 * group's own handlers (Axon's dead-letter processor, on the calling thread), evicted; each action announced as an event,
 * so the audit trail has who, when and why.
 */
public final class ParkedEvents {

    /** Axon names a parked event with a random UUID. */
    private static final Pattern ID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** Sequences one "retry all" works through; the answer says how many are left for the next. */
    static final int MAX_SEQUENCES_PER_RETRY = 1_000;
    private static final String COLUMNS = "dead_letter_id, processing_group, sequence_identifier, sequence_index, payload_type,"
            + " event_identifier, time_stamp, enqueued_at, last_touched, cause_type, cause_message, diagnostics";

    /** Where each processing group keeps its parked events and what runs them again: Axon's own, or a saga's ({@link ParkedSagaEvents}). */
    public interface Queues {

        Optional<SequencedDeadLetterQueue<EventMessage<?>>> queue(String processingGroup);

        Optional<SequencedDeadLetterProcessor<EventMessage<?>>> retrier(String processingGroup);

        /** Axon's queues of the event processing configuration, and {@code sagas}' own. */
        static Queues of(Supplier<EventProcessingConfiguration> processing, List<ParkedSagaEvents> sagas) {
            return new Queues() {
                @Override
                public Optional<SequencedDeadLetterQueue<EventMessage<?>>> queue(String group) {
                    return sagas.stream().filter(saga -> saga.processingGroup().equals(group)).findFirst()
                            .map(ParkedSagaEvents::queue).or(() -> processing.get().deadLetterQueue(group));
                }

                @Override
                public Optional<SequencedDeadLetterProcessor<EventMessage<?>>> retrier(String group) {
                    return sagas.stream().filter(saga -> saga.processingGroup().equals(group)).findFirst()
                            .<SequencedDeadLetterProcessor<EventMessage<?>>>map(saga -> saga)
                            .or(() -> processing.get().sequencedDeadLetterProcessor(group));
                }
            };
        }
    }

    private final JdbcTemplate jdbc;
    private final Supplier<EventProcessingConfiguration> processing;
    private final Queues queues;
    private final EventGateway events;
    private final TransactionTemplate transactions;
    private final Serializer serializer;
    private final List<String> groups;

    public ParkedEvents(JdbcTemplate jdbc, Supplier<EventProcessingConfiguration> processing, Queues queues, EventGateway events,
                        TransactionTemplate transactions, Serializer serializer, List<String> groups) {
        this.jdbc = jdbc;
        this.processing = processing;
        this.queues = queues;
        this.events = events;
        this.transactions = transactions;
        this.serializer = serializer;
        this.groups = List.copyOf(groups);
    }

    /** The processing groups that park events, in name order. */
    public List<String> groups() {
        return groups;
    }

    /** Oldest first; {@code processingGroup} null for every group. Paging is the caller's to bound. */
    public ParkedEventPage list(String processingGroup, int page, int size) {
        if (processingGroup != null && !groups.contains(processingGroup)) {
            throw new InvalidValueException("processingGroup must be one of " + groups);
        }
        Map<String, Long> counts = countsByGroup();
        String where = processingGroup == null ? "" : " WHERE p.processing_group = ?";
        List<Object> arguments = new ArrayList<>();
        if (processingGroup != null) {
            arguments.add(processingGroup);
        }
        arguments.add(size);
        arguments.add((long) page * size);
        List<ParkedEventView> items = jdbc.query("SELECT " + prefixed() + ", h.head_index FROM " + ParkedEventTable.TABLE + " p"
                        + " JOIN (SELECT processing_group, sequence_identifier, MIN(sequence_index) head_index FROM " + ParkedEventTable.TABLE
                        + " GROUP BY processing_group, sequence_identifier) h"
                        + " ON h.processing_group = p.processing_group AND h.sequence_identifier = p.sequence_identifier" + where
                        + " ORDER BY p.enqueued_at, p.processing_group, p.sequence_identifier, p.sequence_index LIMIT ? OFFSET ?",
                this::view, arguments.toArray());
        long total = processingGroup == null ? counts.values().stream().mapToLong(Long::longValue).sum()
                : counts.getOrDefault(processingGroup, 0L);
        return new ParkedEventPage(items, page, size, total, counts);
    }

    /** Parked events by processing group; a group without any is absent. */
    public Map<String, Long> countsByGroup() {
        Map<String, Long> counts = new LinkedHashMap<>();
        jdbc.query("SELECT processing_group, COUNT(*) FROM " + ParkedEventTable.TABLE + " GROUP BY processing_group ORDER BY processing_group",
                row -> {
                    counts.put(row.getString(1), row.getLong(2));
                });
        return counts;
    }

    /**
     * Runs the sequence that holds parked event {@code id} through its group's handlers again, from its head: every event
     * that is handled leaves the queue, the first that fails stays (with the rest behind it).
     */
    public RetryOutcome retry(String id, OperatorAction by) {
        Located letter = locate(id);
        boolean applied = retrySequence(letter.group(), letter.sequence());
        RetryOutcome outcome = new RetryOutcome(letter.group(), letter.sequence(), applied ? 1 : 0, applied ? 0 : 1);
        events.publish(new ParkedEventsRetried(letter.group(), letter.sequence(), outcome.applied(), outcome.stillParked(), by));
        return outcome;
    }

    /** Retries every parked sequence of {@code processingGroup} (up to {@value #MAX_SEQUENCES_PER_RETRY}), oldest first. */
    public RetryOutcome retryAll(String processingGroup, OperatorAction by) {
        if (!groups.contains(processingGroup)) {
            throw new InvalidValueException("processingGroup must be one of " + groups);
        }
        List<String> sequences = jdbc.queryForList("SELECT sequence_identifier FROM " + ParkedEventTable.TABLE
                + " WHERE processing_group = ? GROUP BY sequence_identifier ORDER BY MIN(enqueued_at), sequence_identifier LIMIT ?",
                String.class, processingGroup, MAX_SEQUENCES_PER_RETRY);
        int applied = 0;
        for (String sequence : sequences) {
            if (retrySequence(processingGroup, sequence)) {
                applied++;
            }
        }
        RetryOutcome outcome = new RetryOutcome(processingGroup, null, applied, sequences.size() - applied);
        events.publish(new ParkedEventsRetried(processingGroup, null, outcome.applied(), outcome.stillParked(), by));
        return outcome;
    }

    /** Removes parked event {@code id}: its group never applies it. The events behind it stay parked. */
    public ParkedEvent evict(String id, OperatorAction by) {
        Located located = locate(id);
        return transactions.execute(status -> {
            SequencedDeadLetterQueue<EventMessage<?>> queue = queues.queue(located.group())
                    .orElseThrow(() -> new IllegalStateException("processing group " + located.group() + " has no dead-letter queue"));
            for (DeadLetter<? extends EventMessage<?>> letter : queue.deadLetterSequence(located.sequence())) {
                if (letter instanceof JdbcDeadLetter<?> stored && stored.getIdentifier().equals(id)) {
                    queue.evict(letter);
                    ParkedEvent parked = new ParkedEvent(located.group(), located.sequence(), letter.message().getIdentifier(),
                            letter.message().getPayloadType().getName());
                    events.publish(new ParkedEventEvicted(parked, by));
                    return parked;
                }
            }
            throw new ParkedEventNotFoundException(id);
        });
    }

    /** True when the sequence was handled to its end and left the queue. */
    private boolean retrySequence(String group, String sequence) {
        SequencedDeadLetterProcessor<EventMessage<?>> retrier = queues.retrier(group)
                .orElseThrow(() -> new IllegalStateException("processing group " + group + " has no dead-letter queue"));
        retrier.process(head -> head instanceof JdbcDeadLetter<?> stored && stored.getSequenceIdentifier().equals(sequence));
        Long left = jdbc.queryForObject("SELECT COUNT(*) FROM " + ParkedEventTable.TABLE + " WHERE processing_group = ? AND sequence_identifier = ?",
                Long.class, group, sequence);
        return left == null || left == 0;
    }

    private record Located(String group, String sequence) {
    }

    private Located locate(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new InvalidValueException("a parked event's id is a UUID (as the list gives it)");
        }
        List<Located> found = jdbc.query("SELECT processing_group, sequence_identifier FROM " + ParkedEventTable.TABLE + " WHERE dead_letter_id = ?",
                (row, number) -> new Located(row.getString(1), row.getString(2)), id);
        if (found.isEmpty()) {
            throw new ParkedEventNotFoundException(id);
        }
        return found.get(0);
    }

    private ParkedEventView view(ResultSet row, int number) throws SQLException {
        String group = row.getString("processing_group");
        long position = row.getLong("sequence_index");
        String causeType = row.getString("cause_type");
        return new ParkedEventView(row.getString("dead_letter_id"), group, processorOf(group), row.getString("sequence_identifier"), position,
                position != row.getLong("head_index") || causeType == null, row.getString("payload_type"), row.getString("event_identifier"),
                instant(row.getString("time_stamp")), instant(row.getString("enqueued_at")), instant(row.getString("last_touched")),
                causeType, row.getString("cause_message"), ParkingPolicy.attemptsOf(diagnostics(row.getBytes("diagnostics"))));
    }

    /** The event processor that runs {@code group}. */
    public String processorOf(String group) {
        return processing.get().eventProcessorByProcessingGroup(group).map(EventProcessor::getName).orElse(group);
    }

    private MetaData diagnostics(byte[] stored) {
        if (stored == null) {
            return MetaData.emptyInstance();
        }
        Object read = serializer.deserialize(new SimpleSerializedObject<>(stored, byte[].class, MetaData.class.getName(), null));
        return read instanceof MetaData metaData ? metaData : MetaData.emptyInstance();
    }

    private static Instant instant(String stored) {
        return stored == null ? null : DateTimeUtils.parseInstant(stored);
    }

    private static String prefixed() {
        return "p." + COLUMNS.replace(", ", ", p.");
    }
}
