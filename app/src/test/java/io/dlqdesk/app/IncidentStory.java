package io.dlqdesk.app;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.ReplayRefusal;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.messaging.MetaData;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded random history of many incidents, interleaved as the event store would hold them: opens (some that failed
 * correlation, some of unknown location, some without an exception), redeliveries, replays and their results,
 * correlated re-failures, operator actions and reopens. Each incident's events follow the aggregate's rules.
 */
final class IncidentStory {

    private static final String[] TOPICS = {"orders", "payments", "Shipments"};
    private static final String[] GROUPS = {"billing", "ledger"};
    private static final ExceptionSummary[] EXCEPTIONS = {
            new ExceptionSummary("com.example.PriceMissingException", "no price for order 4711"),
            new ExceptionSummary("com.example.PriceMissingException", "no price for order 4712"),
            new ExceptionSummary("com.example.CardDeclinedException", "card 4111-1111 declined for payment 'p-1'"),
            new ExceptionSummary("com.example.TimeoutException", "timed out after 30000 ms"),
            new ExceptionSummary("com.example.TimeoutException", null),
            null};

    private final Random random;
    private final List<Incident> incidents = new ArrayList<>();
    private final List<DomainEventMessage<?>> events = new ArrayList<>();
    private Instant clock = Instant.parse("2026-03-01T08:00:00.000001Z");

    private IncidentStory(long seed) {
        this.random = new Random(seed);
    }

    static List<DomainEventMessage<?>> told(long seed, int incidents, int laterEvents) {
        IncidentStory story = new IncidentStory(seed);
        for (int i = 0; i < incidents; i++) {
            story.open(i);
            for (int j = 0; j < laterEvents / incidents; j++) {
                story.next(story.incidents.get(story.random.nextInt(story.incidents.size())));
            }
        }
        for (int j = 0; j < laterEvents / 2; j++) {
            story.next(story.incidents.get(story.random.nextInt(story.incidents.size())));
        }
        return List.copyOf(story.events);
    }

    private void open(int number) {
        String topic = TOPICS[random.nextInt(TOPICS.length)];
        FailureKey key = new FailureKey(topic, random.nextInt(3), number, GROUPS[random.nextInt(GROUPS.length)]);
        RecordLocation dlq = new RecordLocation(topic + ".dlq", 0, number);
        ExceptionSummary exception = EXCEPTIONS[random.nextInt(EXCEPTIONS.length)];
        byte[] value = ("{\"n\":" + number + "}").getBytes(StandardCharsets.UTF_8);
        FailedRecord failure = random.nextInt(8) == 0
                ? FailedRecord.withUnknownLocation(key.consumerGroup(), dlq, RecordKey.NONE, null, null, null, exception,
                "no original topic header")
                : new FailedRecord(key, dlq, RecordKey.of(("k" + number).getBytes(StandardCharsets.UTF_8)), new EventId("evt-" + number),
                OriginalTimestamp.ofEpochMilli(1_770_000_000_000L + number, TimestampType.CREATE_TIME), PayloadHash.of(value), exception);
        List<CorrelationMismatch> mismatches = random.nextInt(6) == 0
                ? List.of(CorrelationMismatch.EVENT_ID_MISMATCH, CorrelationMismatch.KEY_MISMATCH) : List.of();
        Incident incident = new Incident(IncidentId.forFailure(failure), failure);
        incidents.add(incident);
        emit(incident, new IncidentOpened(incident.id, failure, tick(), tick().plusSeconds(604_800), mismatches));
    }

    /** One plausible next event of {@code incident}; nothing when none fits its state. */
    private void next(Incident incident) {
        switch (random.nextInt(9)) {
            case 0 -> emit(incident, new DuplicateDeliveryRecorded(incident.id, incident.failure.failureKey(), incident.failure.dlqLocation(),
                    tick().minusSeconds(random.nextInt(3) * 60L)));
            case 1 -> {
                if (incident.attempts > 0 && !incident.requested) {
                    emit(incident, new RetryFailureCorrelated(incident.id, incident.failure, incident.attempts, tick(), null));
                    if (incident.status == IncidentStatus.RESOLVED || incident.status == IncidentStatus.DISCARDED) {
                        emit(incident, new IncidentReopened(incident.id, incident.failure.failureKey(), incident.status, tick()));
                        incident.status = IncidentStatus.OPEN;
                    }
                }
            }
            case 2 -> {
                if (!incident.requested && incident.open()) {
                    incident.attempts++;
                    incident.requested = true;
                    emit(incident, new ReplayRequested(incident.id, incident.attempts, incident.failure.failureKey(),
                            incident.failure.failureKey().location(), incident.failure.failureKey().consumerGroup(), incident.failure.key(),
                            incident.failure.eventId(), incident.failure.valueHash(), incident.failure.originalTimestamp(), null,
                            "dlq-incident-desk", action("alice")));
                } else {
                    emit(incident, new ReplayRejected(incident.id, List.of(ReplayRefusal.REPLAY_ALREADY_REQUESTED,
                            ReplayRefusal.INCIDENT_CLOSED), action("bob")));
                }
            }
            case 3 -> {
                if (incident.requested) {
                    incident.requested = false;
                    PublishResult result = random.nextBoolean()
                            ? PublishResult.published(new RecordLocation(incident.failure.failureKey().topic(), 0, random.nextInt(10_000)), tick())
                            : PublishResult.failed("broker said no", tick(), random.nextBoolean() ? null : (long) random.nextInt(500));
                    emit(incident, new PublishResultRecorded(incident.id, incident.attempts, incident.failure.failureKey(), result));
                }
            }
            case 4 -> {
                if (incident.requested) {
                    incident.requested = false;
                    emit(incident, new PublishMarkedUnknown(incident.id, incident.attempts, incident.failure.failureKey(), action("carol"),
                            random.nextBoolean() ? null : (long) random.nextInt(500)));
                }
            }
            case 5 -> {
                if (incident.status == IncidentStatus.OPEN) {
                    incident.status = IncidentStatus.ACKED;
                    emit(incident, new IncidentAcknowledged(incident.id, action("dave")));
                }
            }
            case 6 -> {
                if (incident.open()) {
                    incident.status = IncidentStatus.RESOLVED;
                    emit(incident, new IncidentResolved(incident.id, action("erin")));
                }
            }
            case 7 -> {
                if (incident.open() && random.nextInt(3) == 0) {
                    incident.status = IncidentStatus.DISCARDED;
                    emit(incident, new IncidentDiscarded(incident.id, action("frank")));
                }
            }
            default -> {
                if (!incident.open()) {
                    emit(incident, new IncidentReopened(incident.id, incident.failure.failureKey(), incident.status, tick()));
                    incident.status = IncidentStatus.OPEN;
                }
            }
        }
    }

    private OperatorAction action(String who) {
        return new OperatorAction(who, "because " + random.nextInt(1000), clock);
    }

    /** Whole microseconds, as the database keeps them; several events may share an instant. */
    private Instant tick() {
        clock = clock.plusNanos(random.nextInt(3) * 1_000L * (1 + random.nextInt(500)));
        return clock;
    }

    private void emit(Incident incident, Object payload) {
        events.add(new GenericDomainEventMessage<>("Incident", incident.id.value(), incident.sequence++, payload, MetaData.emptyInstance(),
                "msg-" + events.size(), tick()));
    }

    private static final class Incident {
        final IncidentId id;
        final FailedRecord failure;
        long sequence;
        IncidentStatus status = IncidentStatus.OPEN;
        int attempts;
        boolean requested;

        Incident(IncidentId id, FailedRecord failure) {
            this.id = id;
            this.failure = failure;
        }

        boolean open() {
            return status == IncidentStatus.OPEN || status == IncidentStatus.ACKED;
        }
    }
}
