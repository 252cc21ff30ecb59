package io.dlqdesk.ingest.classify;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.dlqdesk.record.DltHeaders.*;

/** Builds DLQ records the way Spring's DeadLetterPublishingRecoverer would, so tests can break one thing. */
final class DlqRecordBuilder {

    static final String DLQ_TOPIC = "orders.dlq";
    static final int DLQ_PARTITION = 1;
    static final long DLQ_OFFSET = 7;
    static final long DLQ_PUBLISH_TIME = 1_700_000_999_000L;

    static final String TOPIC = "orders";
    static final int PARTITION = 3;
    static final long OFFSET = 42;
    static final long TIMESTAMP = 1_700_000_000_000L;
    static final String GROUP = "billing";
    static final String WRAPPER_FQCN = "org.springframework.kafka.listener.ListenerExecutionFailedException";
    static final String CAUSE_FQCN = "com.acme.billing.CardDeclinedException";
    static final String MESSAGE = "card declined";
    static final String EVENT_ID = "evt-1";
    static final byte[] KEY = utf8("order-42");
    static final byte[] VALUE = utf8("{\"id\":\"evt-json\",\"amount\":10}");

    private final List<Header> headers = new ArrayList<>();
    private byte[] key = KEY;
    private byte[] value = VALUE;
    private int dlqPartition = DLQ_PARTITION;

    /** A complete, healthy DLQ record: original headers first, then the recoverer's. */
    static DlqRecordBuilder healthy() {
        return new DlqRecordBuilder()
                .add("eventId", utf8(EVENT_ID))
                .add(ORIGINAL_TOPIC, utf8(TOPIC))
                .add(ORIGINAL_PARTITION, int4(PARTITION))
                .add(ORIGINAL_OFFSET, long8(OFFSET))
                .add(ORIGINAL_TIMESTAMP, long8(TIMESTAMP))
                .add(ORIGINAL_TIMESTAMP_TYPE, utf8("CreateTime"))
                .add(ORIGINAL_CONSUMER_GROUP, utf8(GROUP))
                .add(EXCEPTION_FQCN, utf8(WRAPPER_FQCN))
                .add(EXCEPTION_CAUSE_FQCN, utf8(CAUSE_FQCN))
                .add(EXCEPTION_MESSAGE, utf8(MESSAGE))
                .add(EXCEPTION_STACKTRACE, utf8("com.acme.billing.CardDeclinedException: card declined\n\tat ..."));
    }

    /** Appends a header (a repeated name becomes a duplicate, as on a real DLQ record). */
    DlqRecordBuilder add(String name, byte[] bytes) {
        headers.add(new RecordHeader(name, bytes));
        return this;
    }

    /** Replaces every occurrence of a header with one value. */
    DlqRecordBuilder set(String name, byte[] bytes) {
        return without(name).add(name, bytes);
    }

    DlqRecordBuilder set(String name, String text) {
        return set(name, utf8(text));
    }

    DlqRecordBuilder without(String name) {
        headers.removeIf(header -> header.key().equals(name));
        return this;
    }

    DlqRecordBuilder key(byte[] bytes) {
        this.key = bytes;
        return this;
    }

    DlqRecordBuilder value(byte[] bytes) {
        this.value = bytes;
        return this;
    }

    DlqRecordBuilder dlqPartition(int partition) {
        this.dlqPartition = partition;
        return this;
    }

    ConsumerRecord<byte[], byte[]> build() {
        return new ConsumerRecord<>(DLQ_TOPIC, dlqPartition, DLQ_OFFSET, DLQ_PUBLISH_TIME, TimestampType.CREATE_TIME,
                key == null ? -1 : key.length, value == null ? -1 : value.length, key, value,
                new RecordHeaders(headers), Optional.empty());
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] int4(int value) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
    }

    static byte[] long8(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }
}
