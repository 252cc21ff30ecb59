package io.dlqdesk.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Records as the desk replays them, signed or not, for the filter tests. */
final class TestReplays {

    static final String SECRET_1 = "an-example-secret-of-at-least-32-bytes";
    static final String SECRET_2 = "a-second-secret-for-rotation-0123456789";
    static final ReplayKeys KEY_1 = ReplayKeys.of("k1", SECRET_1);

    private TestReplays() {
    }

    static Headers headers(String targetGroup, String owner) {
        Headers headers = new RecordHeaders();
        headers.add(ReplayHeaderNames.ROOT_INCIDENT_ID, utf8("incident-1"));
        headers.add(ReplayHeaderNames.ATTEMPT, utf8("1"));
        if (targetGroup != null) {
            headers.add(ReplayHeaderNames.TARGET_GROUP, utf8(targetGroup));
        }
        if (owner != null) {
            headers.add(ReplayHeaderNames.OWNER, utf8(owner));
        }
        return headers;
    }

    /** An unsigned record on orders-0 with these headers: what any producer to the topic can write. */
    static ConsumerRecord<byte[], byte[]> record(Headers headers) {
        return record("orders", 0, 0, utf8("order-1"), utf8("{\"order\":1}"), headers);
    }

    static <K, V> ConsumerRecord<K, V> record(String topic, int partition, long offset, K key, V value, Headers headers) {
        return new ConsumerRecord<>(topic, partition, offset, 0L, TimestampType.CREATE_TIME, -1, -1, key, value, headers, Optional.empty());
    }

    /** An unsigned replay for the group from the owner. */
    static ConsumerRecord<byte[], byte[]> replay(String targetGroup, String owner) {
        return record(headers(targetGroup, owner));
    }

    /** The same replay signed, as the desk would with that key. */
    static ConsumerRecord<byte[], byte[]> signedReplay(String targetGroup, String owner) {
        return signed(replay(targetGroup, owner), KEY_1, "k1");
    }

    /** Adds the signature of the record's current content under the key. */
    static <K, V> ConsumerRecord<K, V> signed(ConsumerRecord<K, V> record, ReplayKeys keys, String keyId) {
        record.headers().add(ReplayHeaderNames.SIGNATURE, utf8(keys.sign(keyId, record.topic(), record.partition(),
                bytes(record.key()), bytes(record.value()), record.headers())));
        return record;
    }

    /** The same key, value and headers (the signature included) on another partition, topic or with other content. */
    static <K, V> ConsumerRecord<K, V> copy(ConsumerRecord<?, ?> original, String topic, int partition, K key, V value) {
        return record(topic, partition, original.offset(), key, value, new RecordHeaders(original.headers().toArray()));
    }

    static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(Object data) {
        return data == null ? null : data instanceof String text ? utf8(text) : (byte[]) data;
    }
}
