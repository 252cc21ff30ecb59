package io.dlqdesk.app;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.edit.AppliedEdit;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.ReplayRefusal;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Events are forever: payloads stored before a component existed still read, with the component absent. */
class StoredEventFormTest {

    private final Serializer serializer = new AxonSerialization().serializer();

    // the stored form before replayHeaders, locationUnknownReason and rawType existed: the same fields, without them
    private static final String FAILURE = "{\"failureKey\":{\"topic\":\"orders\",\"partition\":3,\"offset\":42,\"consumerGroup\":\"billing\"},"
            + "\"dlqLocation\":{\"topic\":\"orders.dlq\",\"partition\":0,\"offset\":9},\"key\":{\"bytes\":\"b3JkZXItNw==\"},"
            + "\"eventId\":{\"value\":\"evt-0001\"},\"originalTimestamp\":{\"instant\":\"2026-11-28T10:00:00Z\",\"type\":\"CREATE_TIME\"},"
            + "\"valueHash\":{\"hex\":\"" + "ab".repeat(32) + "\"},\"exception\":{\"exceptionClass\":\"com.example.StockException\",\"message\":\"no stock\"}}";

    private <T> T read(String json, Class<T> type) {
        return serializer.deserialize(new SimpleSerializedObject<>(json.getBytes(StandardCharsets.UTF_8), byte[].class,
                new SimpleSerializedType(type.getName(), null)));
    }

    @Test
    void anIncidentOpenedOfTheFirstFormReadsWithoutHeadersAndWithAKnownLocation() {
        IncidentOpened opened = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"failure\":" + FAILURE
                + ",\"detectedAt\":\"2026-11-28T10:01:00Z\",\"replayDeadline\":\"2026-12-05T10:00:00Z\",\"correlationMismatches\":[]}",
                IncidentOpened.class);

        assertThat(opened.replayHeaders()).isNull();
        assertThat(opened.failure().originalLocationKnown()).isTrue();
        assertThat(opened.failure().originalTimestamp().type()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(opened.failure().originalTimestamp().rawType()).isNull();
        assertThat(opened.failureKey().offset()).isEqualTo(42);
        assertThat(opened.failure().dialect()).as("before dialects only Spring's headers were read").isEqualTo(DlqDialect.SPRING);
    }

    @Test
    void aFailureReadFromAnotherWritersHeadersKeepsItsDialect() {
        IncidentOpened opened = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"failure\":"
                + FAILURE.substring(0, FAILURE.length() - 1) + ",\"dialect\":\"CONNECT\"}"
                + ",\"detectedAt\":\"2026-11-28T10:01:00Z\",\"replayDeadline\":null,\"correlationMismatches\":[]}", IncidentOpened.class);
        var serialized = serializer.serialize(opened, byte[].class);

        assertThat(opened.failure().dialect()).isEqualTo(DlqDialect.CONNECT);
        assertThat(serializer.<byte[], IncidentOpened>deserialize(serialized)).isEqualTo(opened);
        assertThat(new String(serialized.getData(), StandardCharsets.UTF_8)).contains("\"dialect\":\"CONNECT\"");
    }

    @Test
    void aRetryFailureCorrelatedOfTheFirstFormReadsWithoutHeaders() {
        RetryFailureCorrelated correlated = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"failure\":" + FAILURE
                + ",\"attempt\":1,\"detectedAt\":\"2026-11-28T10:01:00Z\",\"replayDeadline\":\"2026-12-05T10:00:00Z\"}",
                RetryFailureCorrelated.class);

        assertThat(correlated.headers()).isNull();
        assertThat(correlated.attempt()).isEqualTo(1);
    }

    @Test
    void aReplayJobCreatedOfTheFirstFormHoldsItsWholeManifest() {
        String a = "inc-" + "a".repeat(32);
        String b = "inc-" + "b".repeat(32);
        ReplayJobCreated created = read("{\"jobId\":{\"value\":\"job-1\"},\"selection\":\"explicit list\",\"manifest\":[{\"value\":\"" + a
                + "\"},{\"value\":\"" + b + "\"}],\"limits\":{\"ratePerSecond\":10,\"maxInFlight\":50,\"canary\":null,\"maxRefailureRate\":null},"
                + "\"createdBy\":{\"principal\":\"alice\",\"reason\":\"fix\",\"at\":\"2026-11-28T10:01:00Z\"}}", ReplayJobCreated.class);

        assertThat(created.selected()).as("no parts followed it").isEqualTo(2);
        assertThat(created.manifest()).containsExactly(new IncidentId(a), new IncidentId(b));
        var serialized = serializer.serialize(created, byte[].class);
        assertThat(serializer.<byte[], ReplayJobCreated>deserialize(serialized)).isEqualTo(created);
    }

    @Test
    void theNewFormRoundTrips() {
        IncidentOpened opened = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"failure\":" + FAILURE
                + ",\"detectedAt\":\"2026-11-28T10:01:00Z\",\"replayDeadline\":null,\"correlationMismatches\":[\"FAILURE_KEY_TAKEN\"],"
                + "\"replayHeaders\":{\"rootIncidentId\":\"x\",\"attempt\":\"1\",\"owner\":\"o\",\"targetGroup\":\"billing\"}}",
                IncidentOpened.class);
        var serialized = serializer.serialize(opened, byte[].class);

        assertThat(serializer.<byte[], IncidentOpened>deserialize(serialized)).isEqualTo(opened);
        assertThat(new String(serialized.getData(), StandardCharsets.UTF_8)).contains("\"replayHeaders\"", "\"locationUnknownReason\"");
    }

    @Test
    void replayEventsStoredBeforeTheStaleKeyCheckReadAsNotCheckedAndNotOverridden() {
        String by = "{\"principal\":\"alice\",\"reason\":\"fix\",\"at\":\"2026-11-28T10:01:00Z\"}";
        ReplayRejected rejected = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"reasons\":[\"REPLAY_SWITCH_OFF\"],"
                + "\"requestedBy\":" + by + "}", ReplayRejected.class);
        assertThat(rejected.keyFreshness()).isNull();
        assertThat(rejected.reasons()).containsExactly(ReplayRefusal.REPLAY_SWITCH_OFF);

        ReplayRequested requested = read("{\"incidentId\":{\"value\":\"inc-" + "0".repeat(32) + "\"},\"attempt\":1,"
                + "\"claimedFailure\":{\"topic\":\"orders\",\"partition\":3,\"offset\":42,\"consumerGroup\":\"billing\"},"
                + "\"sourceLocation\":{\"topic\":\"orders\",\"partition\":3,\"offset\":42},\"targetGroup\":\"billing\","
                + "\"key\":{\"bytes\":\"b3JkZXItNw==\"},\"eventId\":{\"value\":\"evt-0001\"},\"valueHash\":{\"hex\":\"" + "ab".repeat(32) + "\"},"
                + "\"originalTimestamp\":{\"instant\":\"2026-11-28T10:00:00Z\",\"type\":\"CREATE_TIME\"},"
                + "\"replayDeadline\":\"2026-12-05T10:00:00Z\",\"owner\":\"desk\",\"requestedBy\":" + by + "}", ReplayRequested.class);
        assertThat(requested.keyFreshness()).isNull();
        assertThat(requested.staleKeyOverridden()).isFalse();
        assertThat(requested.edit()).isNull();
        assertThat(requested.publishedValueHash()).isEqualTo(requested.valueHash());

        ReplayRequested overridden = new ReplayRequested(requested.incidentId(), 1, requested.claimedFailure(), requested.sourceLocation(),
                requested.targetGroup(), requested.key(), requested.eventId(), requested.valueHash(), requested.originalTimestamp(),
                requested.replayDeadline(), requested.owner(), requested.requestedBy(), KeyFreshness.stale(57, "offset 57"), true);
        var serialized = serializer.serialize(overridden, byte[].class);
        assertThat(serializer.<byte[], ReplayRequested>deserialize(serialized)).isEqualTo(overridden);
    }

    /** An edit's events and a replay of it keep their diff (nulls for added and removed), hashes and principals as stored. */
    @Test
    void editsAndTheReplayOfAnEditReadBackAsStored() {
        IncidentId id = IncidentId.parse("inc-" + "0".repeat(32));
        OperatorAction by = new OperatorAction("eddie", "qty was wrong", java.time.Instant.parse("2026-11-28T10:01:00Z"));
        PayloadHash edited = PayloadHash.of("{\"qty\":1}".getBytes(StandardCharsets.UTF_8));
        PayloadHash content = PayloadHash.of("content".getBytes(StandardCharsets.UTF_8));
        ReplayEditProposed proposed = new ReplayEditProposed(id, 1, edited, content, 9, new EditDiff(EditDiff.Kind.JSON,
                List.of(new EditDiff.Change("/qty", "0", "1"), new EditDiff.Change("/note", "\"x\"", null)),
                List.of(new EditDiff.Change("tenant[0]", null, "de"))), by);
        assertThat(serializer.<byte[], ReplayEditProposed>deserialize(serializer.serialize(proposed, byte[].class))).isEqualTo(proposed);
        ReplayEditApproved approved = new ReplayEditApproved(id, 1, new OperatorAction("bob", "checked", by.at()));
        assertThat(serializer.<byte[], ReplayEditApproved>deserialize(serializer.serialize(approved, byte[].class))).isEqualTo(approved);

        FailedRecord root = new FailedRecord(new FailureKey("orders", 3, 42L, "billing"), new RecordLocation("orders.dlq", 0, 9L),
                RecordKey.of("order-7".getBytes(StandardCharsets.UTF_8)), new EventId("evt-0001"), null,
                PayloadHash.of("{\"qty\":0}".getBytes(StandardCharsets.UTF_8)), null);
        ReplayRequested ofEdit = ReplayRequested.of(id, 1, root.failureKey(), root, null, "desk", by, null, false, new AppliedEdit(1, edited, content));
        ReplayRequested read = serializer.deserialize(serializer.serialize(ofEdit, byte[].class));
        assertThat(read).isEqualTo(ofEdit);
        assertThat(read.publishedValueHash()).isEqualTo(edited);
        assertThat(read.valueHash()).isEqualTo(root.valueHash());
    }
}
