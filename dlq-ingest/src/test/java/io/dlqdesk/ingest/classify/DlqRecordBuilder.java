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

/** Builds DLQ records the way Spring's DeadLetterPublishingRecoverer, a Kafka Connect sink or Kafka Streams would, so tests can break one thing. */
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
    private long timestamp = DLQ_PUBLISH_TIME;
    private TimestampType timestampType = TimestampType.CREATE_TIME;

    static final String CONNECTOR = "orders-sink";
    static final String CONNECT_WRAPPER = "org.apache.kafka.connect.errors.DataException";
    static final String ROOT_CAUSE = "java.net.ConnectException";
    static final String STACK_TRACE = CONNECT_WRAPPER + ": Converting byte[] to Kafka Connect data failed\n"
            + "\tat org.apache.kafka.connect.json.JsonConverter.toConnectData(JsonConverter.java:333)\n"
            + "Caused by: com.acme.billing.CardDeclinedException: card declined\n\tat com.acme.Billing.charge(Billing.java:10)\n"
            + "Caused by: " + ROOT_CAUSE + ": downstream refused\n\t... 12 more\n";

    /** As a Kafka Connect sink writes its DLQ with context headers on: the source's headers, then its own, numbers as text. */
    static DlqRecordBuilder connect() {
        return new DlqRecordBuilder()
                .add("eventId", utf8(EVENT_ID))
                .add("__connect.errors.topic", utf8(TOPIC))
                .add("__connect.errors.partition", utf8(Integer.toString(PARTITION)))
                .add("__connect.errors.offset", utf8(Long.toString(OFFSET)))
                .add("__connect.errors.connector.name", utf8(CONNECTOR))
                .add("__connect.errors.task.id", utf8("0"))
                .add("__connect.errors.stage", utf8("VALUE_CONVERTER"))
                .add("__connect.errors.class.name", utf8("org.apache.kafka.connect.json.JsonConverter"))
                .add("__connect.errors.exception.class.name", utf8(CONNECT_WRAPPER))
                .add("__connect.errors.exception.message", utf8(MESSAGE))
                .add("__connect.errors.exception.stacktrace", utf8(STACK_TRACE))
                .timestamp(TIMESTAMP, TimestampType.CREATE_TIME);
    }

    /** As Kafka Streams (4.2+) writes its DLQ: the source's headers, then its own, numbers as text. */
    static DlqRecordBuilder streams() {
        return new DlqRecordBuilder()
                .add("eventId", utf8(EVENT_ID))
                .add("__streams.errors.exception", utf8("java.lang.IllegalStateException"))
                .add("__streams.errors.message", utf8(MESSAGE))
                .add("__streams.errors.stacktrace", utf8("java.lang.IllegalStateException: card declined\n\tat com.acme.Topology.lambda(Topology.java:1)\n"))
                .add("__streams.errors.topic", utf8(TOPIC))
                .add("__streams.errors.partition", utf8(Integer.toString(PARTITION)))
                .add("__streams.errors.offset", utf8(Long.toString(OFFSET)))
                .timestamp(TIMESTAMP, TimestampType.CREATE_TIME);
    }

    /** Only the source record's own headers: a Connect DLQ with context headers off. */
    static DlqRecordBuilder bare() {
        return new DlqRecordBuilder().add("eventId", utf8(EVENT_ID)).timestamp(TIMESTAMP, TimestampType.CREATE_TIME);
    }

    /** The DLQ record's own timestamp and type (the healthy Spring record's is its publish time, CreateTime). */
    DlqRecordBuilder timestamp(long epochMilli, TimestampType type) {
        this.timestamp = epochMilli;
        this.timestampType = type;
        return this;
    }

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
        return new ConsumerRecord<>(DLQ_TOPIC, dlqPartition, DLQ_OFFSET, timestamp, timestampType,
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
