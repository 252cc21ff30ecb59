package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A downstream service as our users write one: a Spring Kafka listener whose failures go to
 * {@code <topic>.dlq} (same partition) through DeadLetterPublishingRecoverer, and which is
 * idempotent by eventId: a record it has processed before changes nothing.
 */
final class OrdersService implements AutoCloseable {

    private final DeadLetteringListener listener;
    /** eventIds this service currently fails on. */
    final Set<String> failing = ConcurrentHashMap.newKeySet();
    /** eventId → how many times a record with it was delivered. */
    final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    /** eventIds whose effect was applied: the idempotency store. */
    private final Set<String> processed = ConcurrentHashMap.newKeySet();
    /** eventId → how many times its effect was applied. */
    private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();

    OrdersService(KafkaBroker broker, String topic, String group) {
        listener = new DeadLetteringListener(broker.bootstrapServers(), topic, group, this::process);
    }

    private void process(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader("eventId");
        String eventId = header == null ? "none" : new String(header.value(), StandardCharsets.UTF_8);
        deliveries.computeIfAbsent(eventId, id -> new AtomicInteger()).incrementAndGet();
        if (failing.contains(eventId)) {
            throw new IllegalStateException("price service down for " + eventId);
        }
        if (processed.add(eventId)) { // a copy of a record processed before changes nothing
            effects.computeIfAbsent(eventId, id -> new AtomicInteger()).incrementAndGet();
        }
    }

    int deliveriesOf(String eventId) {
        AtomicInteger count = deliveries.get(eventId);
        return count == null ? 0 : count.get();
    }

    int effectsOf(String eventId) {
        AtomicInteger count = effects.get(eventId);
        return count == null ? 0 : count.get();
    }

    void start() {
        listener.start();
    }

    void stop() {
        listener.stop();
    }

    @Override
    public void close() {
        listener.close();
    }
}
