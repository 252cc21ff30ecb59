package io.dlqdesk.app;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.Environment;
import org.springframework.util.backoff.FixedBackOff;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code dlqdesk.embedded.demo-data=true} (local run only): two small services, written as users
 * write them (Spring Kafka listeners whose failures go to {@code <topic>.dlq} through
 * DeadLetterPublishingRecoverer), fail on a handful of records, so a newcomer sees incidents at once.
 * The orders service fails only on a first delivery (a replay succeeds); the payments service keeps
 * failing (a replay fails again and is correlated to its incident). It retries a replayed record for
 * {@link #PAYMENTS_REPLAY_RETRIES} first, as a service with a retry back-off does: that is the time the
 * README's tour has to resolve the incident and watch the re-failure reopen it. Records are sent once,
 * when the demo topics are first created.
 */
final class DemoFailures implements ApplicationListener<ApplicationEvent> {

    static final String ENABLED = "dlqdesk.embedded.demo-data";
    static final String ORDERS = "demo.orders";
    static final String PAYMENTS = "demo.payments";
    private static final String PREFIX = "demo";
    /** Three tries 10 s apart: about 30 s from a replay to its re-failure on the DLQ. */
    static final FixedBackOff PAYMENTS_REPLAY_RETRIES = new FixedBackOff(10_000, 3);

    private final List<DeadLetteringListener> services = new ArrayList<>();
    private final String prefix;
    private final String orders;
    private final String payments;

    /** The demo as the local run shows it: {@value #ORDERS} and {@value #PAYMENTS}. */
    DemoFailures() {
        this(PREFIX);
    }

    /** The same services and records on {@code <prefix>.orders} and {@code <prefix>.payments}, with groups of their own. */
    DemoFailures(String prefix) {
        this.prefix = prefix;
        this.orders = prefix + ".orders";
        this.payments = prefix + ".payments";
    }

    String orders() {
        return orders;
    }

    String payments() {
        return payments;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationReadyEvent ready && ready.getApplicationContext().getEnvironment().getProperty(ENABLED, Boolean.class, false)) {
            start(ready.getApplicationContext().getEnvironment());
        } else if (event instanceof ContextClosedEvent) {
            stop();
        }
    }

    private synchronized void start(Environment env) {
        String servers = env.getRequiredProperty("spring.kafka.bootstrap-servers");
        boolean created;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            created = !existing.contains(orders);
            List<NewTopic> topics = new ArrayList<>();
            for (String topic : List.of(orders, orders + ".dlq", payments, payments + ".dlq")) {
                if (!existing.contains(topic)) {
                    topics.add(new NewTopic(topic, 3, (short) 1));
                }
            }
            admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("demo data: cannot create the demo topics on " + servers, e);
        }
        services.add(started(new DeadLetteringListener(servers, orders, prefix + "-orders-service", record -> {
            if (record.headers().lastHeader("dlq-incident-attempt") == null && text(record.value()).contains("SKU-404")) {
                throw new IllegalStateException("no price for SKU-404 in price list 2026-11");
            }
        })));
        services.add(started(new DeadLetteringListener(servers, payments, prefix + "-payments-service", record -> {
            if (text(record.value()).contains("\"card\":\"4000")) {
                throw new IllegalArgumentException("card declined by issuer for payment " + text(record.key()));
            }
        }, PAYMENTS_REPLAY_RETRIES)));
        if (created) {
            send(servers);
        }
        System.out.println("[embedded] demo data: services on " + orders + " and " + payments + " (failures go to <topic>.dlq)");
    }

    private static DeadLetteringListener started(DeadLetteringListener service) {
        service.start();
        return service;
    }

    private void send(String servers) {
        String[][] records = {
                {orders, "order-1001", "{\"order\":1001,\"sku\":\"SKU-7\",\"qty\":1}"},
                {orders, "order-1002", "{\"order\":1002,\"sku\":\"SKU-404\",\"qty\":2}"},
                {orders, "order-1003", "{\"order\":1003,\"sku\":\"SKU-404\",\"qty\":1}"},
                {orders, "order-1004", "{\"order\":1004,\"sku\":\"SKU-12\",\"qty\":5}"},
                {payments, "pay-2001", "{\"payment\":2001,\"card\":\"4111-xxxx\",\"amount\":\"19.99\"}"},
                {payments, "pay-2002", "{\"payment\":2002,\"card\":\"4000-xxxx\",\"amount\":\"250.00\"}"},
                {payments, "pay-2003", "{\"payment\":2003,\"card\":\"4000-xxxx\",\"amount\":\"12.50\"}"}};
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String[] record : records) {
                ProducerRecord<byte[], byte[]> message = new ProducerRecord<>(record[0], bytes(record[1]), bytes(record[2]));
                message.headers().add("eventId", bytes("evt-" + record[1]));
                producer.send(message);
            }
            producer.flush();
        }
    }

    private synchronized void stop() {
        services.forEach(DeadLetteringListener::close);
        services.clear();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
