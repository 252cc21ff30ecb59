package io.dlqdesk.replay.job;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** An incident's own history decides whether a job asks it: a request of this job found there is its answer. */
class IncidentAskTest {

    private static final ReplayJobId JOB = new ReplayJobId("job-1");
    private static final Instant NOW = Instant.parse("2026-12-01T06:00:00Z");
    private static final FailureKey KEY = new FailureKey("orders", 0, 7, "billing");
    private static final IncidentId INCIDENT = IncidentId.of(KEY);
    private static final FailedRecord ROOT = new FailedRecord(KEY, new RecordLocation("orders.dlq", 0, 7), RecordKey.NONE, null, null, null, null);
    private static final OperatorAction ALICE = new OperatorAction("alice", "replay job job-1: fix deployed", NOW);

    private final EmbeddedEventStore store = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
    private final List<RecordLocation> requested = new ArrayList<>();
    private final ReplayRequester requester = new ReplayRequester(null, null, null, null, null, null, "desk", null) {
        @Override
        public RequestReplayCommand prepare(IncidentId incidentId, RecordLocation recordedLocation, String targetGroup, OperatorAction requestedBy) {
            requested.add(recordedLocation);
            return new RequestReplayCommand(incidentId, SourceRecordFacts.notFound(recordedLocation), new ReplayPolicy(true, 3), true, "desk",
                    requestedBy);
        }
    };
    private final IncidentAsk ask = new IncidentAsk(store, requester);
    private long sequence;

    @AfterEach
    void close() {
        store.shutDown();
    }

    private void stored(Object event, Map<String, ?> metadata) {
        store.publish(new GenericDomainEventMessage<>("Incident", INCIDENT.value(), sequence++, event, MetaData.from(metadata)));
    }

    private ReplayRequested requestedAttempt(int attempt) {
        return ReplayRequested.of(INCIDENT, attempt, KEY, ROOT, NOW.plus(Duration.ofDays(7)), "desk", ALICE);
    }

    @Test
    void anIncidentTheJobNeverAskedIsAskedAtItsRecordedLocation() {
        stored(new IncidentOpened(INCIDENT, ROOT, NOW, null, List.of()), Map.of());
        stored(requestedAttempt(1), Map.of()); // an operator's single replay, not the job's

        IncidentAsk.Prepared prepared = ask.prepare(JOB, INCIDENT, ALICE);
        assertThat(prepared.earlier()).isNull();
        assertThat(prepared.request().incidentId()).isEqualTo(INCIDENT);
        assertThat(requested).as("read at the recorded location").containsExactly(KEY.location());
    }

    @Test
    void aRequestOfThisJobInTheHistoryIsTheAnswerAndNothingIsAskedAgain() {
        stored(new IncidentOpened(INCIDENT, ROOT, NOW, null, List.of()), Map.of());
        stored(requestedAttempt(2), Map.of(JobMetadata.KEY, JOB.value()));

        assertThat(ask.prepare(JOB, INCIDENT, ALICE)).isEqualTo(new IncidentAsk.Prepared(ReplayOutcome.requested(2), null));
        assertThat(requested).isEmpty();
    }

    @Test
    void aRefusalOfThisJobInTheHistoryIsTheAnswerToo() {
        stored(new IncidentOpened(INCIDENT, ROOT, NOW, null, List.of()), Map.of());
        stored(new ReplayRejected(INCIDENT, List.of(ReplayRefusal.INCIDENT_CLOSED), ALICE), Map.of(JobMetadata.KEY, JOB.value()));

        assertThat(ask.prepare(JOB, INCIDENT, ALICE))
                .isEqualTo(new IncidentAsk.Prepared(ReplayOutcome.rejected(List.of(ReplayRefusal.INCIDENT_CLOSED)), null));
        assertThat(requested).isEmpty();
    }

    @Test
    void aRequestOfAnotherJobDoesNotAnswerThisOne() {
        stored(new IncidentOpened(INCIDENT, ROOT, NOW, null, List.of()), Map.of());
        stored(requestedAttempt(1), Map.of(JobMetadata.KEY, "job-2"));

        assertThat(ask.prepare(JOB, INCIDENT, ALICE).earlier()).isNull();
        assertThat(requested).hasSize(1);
    }
}
