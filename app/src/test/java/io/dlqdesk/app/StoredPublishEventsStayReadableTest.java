package io.dlqdesk.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events are forever: payloads stored before {@code endOffsetAtDecision} existed (no such property at all)
 * still deserialize with the service's own serializer, as "not recorded" (null), and new ones keep it.
 */
class StoredPublishEventsStayReadableTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Serializer SERIALIZER = new AxonSerialization().serializer();
    private static final FailureKey KEY = new FailureKey("orders", 3, 42L, "billing");
    private static final IncidentId ID = IncidentId.of(KEY);
    private static final Instant AT = Instant.parse("2026-11-30T07:00:00Z");
    private static final OperatorAction ADMIN = new OperatorAction("admin", "row gone", AT);

    @Test
    void aPublishMarkedUnknownStoredWithoutAnEndOffsetReadsAsNotRecorded() throws Exception {
        byte[] old = withoutEndOffset(SERIALIZER.serialize(new PublishMarkedUnknown(ID, 1, KEY, ADMIN, 77L), byte[].class), null);

        Object read = SERIALIZER.deserialize(new SimpleSerializedObject<>(old, byte[].class, PublishMarkedUnknown.class.getName(), null));

        assertThat(read).isEqualTo(new PublishMarkedUnknown(ID, 1, KEY, ADMIN, null));
    }

    @Test
    void aFailedPublishResultStoredWithoutAnEndOffsetReadsAsNotRecorded() throws Exception {
        PublishResultRecorded event = new PublishResultRecorded(ID, 1, KEY, PublishResult.failed("after 5 tries: timeout", AT, 900L));
        byte[] old = withoutEndOffset(SERIALIZER.serialize(event, byte[].class), "result");

        Object read = SERIALIZER.deserialize(new SimpleSerializedObject<>(old, byte[].class, PublishResultRecorded.class.getName(), null));

        assertThat(read).isEqualTo(new PublishResultRecorded(ID, 1, KEY, PublishResult.failed("after 5 tries: timeout", AT)));
    }

    @Test
    void aPublishedResultStoredBeforeStillReadsTheSame() throws Exception {
        PublishResultRecorded event = new PublishResultRecorded(ID, 1, KEY, PublishResult.published(new RecordLocation("orders", 3, 50L), AT));
        byte[] old = withoutEndOffset(SERIALIZER.serialize(event, byte[].class), "result");

        Object read = SERIALIZER.deserialize(new SimpleSerializedObject<>(old, byte[].class, PublishResultRecorded.class.getName(), null));

        assertThat(read).isEqualTo(event);
    }

    @Test
    void aNewEventKeepsItsEndOffset() {
        PublishMarkedUnknown event = new PublishMarkedUnknown(ID, 2, KEY, ADMIN, 1234L);

        Object read = SERIALIZER.deserialize(SERIALIZER.serialize(event, byte[].class));

        assertThat(read).isEqualTo(event);
    }

    /** The stored form as it was before the property existed: the property removed, not just null. */
    private static byte[] withoutEndOffset(SerializedObject<byte[]> current, String inside) throws Exception {
        ObjectNode payload = (ObjectNode) JSON.readTree(current.getData());
        ObjectNode holder = inside == null ? payload : (ObjectNode) payload.get(inside);
        assertThat(holder.has("endOffsetAtDecision")).as("the current form has it").isTrue();
        holder.remove("endOffsetAtDecision");
        return JSON.writeValueAsBytes(payload);
    }
}
