package io.dlqdesk.testsupport;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A DLQ record as Spring Kafka's DeadLetterPublishingRecoverer writes it (original headers first,
 * then the {@code kafka_dlt-*} ones, numbers big-endian), for tests to send to a real broker and to
 * break one piece of at a time.
 */
public final class DltRecord {

    private final RecordHeaders headers = new RecordHeaders();
    private byte[] key = utf8("key");
    private byte[] value;

    private DltRecord() {
    }

    /** A healthy failure of {@code group} on the record at {@code topic}/{@code partition}/{@code offset}. */
    public static DltRecord failure(String topic, int partition, long offset, String group) {
        DltRecord record = new DltRecord();
        record.value = utf8("{\"offset\":" + offset + "}");
        return record.header("eventId", "evt-" + topic + "-" + partition + "-" + offset)
                .header("kafka_dlt-original-topic", topic)
                .header("kafka_dlt-original-partition", ByteBuffer.allocate(4).putInt(partition).array())
                .header("kafka_dlt-original-offset", ByteBuffer.allocate(8).putLong(offset).array())
                .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(1_764_400_000_000L + offset).array())
                .header("kafka_dlt-original-timestamp-type", "CreateTime")
                .header("kafka_dlt-original-consumer-group", group)
                .header("kafka_dlt-exception-fqcn", "org.springframework.kafka.listener.ListenerExecutionFailedException")
                .header("kafka_dlt-exception-cause-fqcn", "com.example.PriceMissingException")
                .header("kafka_dlt-exception-message", "no price");
    }

    public DltRecord header(String name, String text) {
        return header(name, utf8(text));
    }

    public DltRecord header(String name, byte[] bytes) {
        headers.add(name, bytes);
        return this;
    }

    public DltRecord without(String name) {
        headers.remove(name);
        return this;
    }

    public DltRecord key(byte[] bytes) {
        this.key = bytes;
        return this;
    }

    public DltRecord value(byte[] bytes) {
        this.value = bytes;
        return this;
    }

    public ProducerRecord<byte[], byte[]> to(String dlqTopic, int dlqPartition) {
        return new ProducerRecord<>(dlqTopic, dlqPartition, null, key, value, headers);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
