package io.dlqdesk.app;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.extensions.kafka.eventhandling.KafkaMessageConverter;
import org.axonframework.extensions.kafka.eventhandling.producer.KafkaPublisher;
import org.axonframework.extensions.kafka.eventhandling.producer.ProducerFactory;
import org.axonframework.extensions.kafka.eventhandling.producer.TopicResolver;
import org.axonframework.messaging.EventPublicationFailedException;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.monitoring.MessageMonitor;
import org.axonframework.monitoring.MessageMonitor.MonitorCallback;
import org.axonframework.serialization.Serializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The events topic's publisher in {@code wait_for_ack} mode. axon-kafka 4.9.0 waits for each event's acknowledgement
 * before it sends the next, so a publisher segment sent one event per round trip (about 140 events/s here) and a storm's
 * events reached the topic minutes after the storm. This one sends a processor batch's events one after another and
 * waits for all their acknowledgements once, at the batch's last event: before the processor stores its token (so the
 * token's row is not locked while it waits), in the transaction that stores it, so a send that fails rolls the batch
 * back and the whole batch is sent again (at least once, as with the extension). Should a batch end without its last
 * event reaching this publisher, the wait happens when the batch prepares to commit. The other confirmation modes, and
 * a send outside a unit of work, are the extension's own.
 */
final class BatchAcknowledgedKafkaPublisher<K, V> extends KafkaPublisher<K, V> {

    private final ProducerFactory<K, V> producers;
    private final KafkaMessageConverter<K, V> converter;
    private final TopicResolver topics;
    private final MessageMonitor<? super EventMessage<?>> monitor;
    private final Duration acknowledgementLimit;
    private final String resource = BatchAcknowledgedKafkaPublisher.class.getName() + "@" + System.identityHashCode(this);

    /**
     * {@code acknowledgementLimit}: how long a batch waits for its acknowledgements at most; the producer's
     * {@code delivery.timeout.ms}, within which Kafka reports every send's outcome itself.
     */
    BatchAcknowledgedKafkaPublisher(ProducerFactory<K, V> producers, KafkaMessageConverter<K, V> converter, TopicResolver topics,
                                    MessageMonitor<? super EventMessage<?>> monitor, Serializer serializer, Duration acknowledgementLimit) {
        super(KafkaPublisher.<K, V>builder().producerFactory(producers).messageConverter(converter).topicResolver(topics)
                .messageMonitor(monitor).serializer(serializer));
        this.producers = producers;
        this.converter = converter;
        this.topics = topics;
        this.monitor = monitor;
        this.acknowledgementLimit = acknowledgementLimit;
    }

    @Override
    public <T extends EventMessage<?>> void send(T event) {
        if (!producers.confirmationMode().isWaitForAck() || !CurrentUnitOfWork.isStarted()) {
            super.send(event);
            return;
        }
        Optional<String> topic = topics.resolve(event);
        if (topic.isEmpty()) {
            return;
        }
        UnitOfWork<?> batch = CurrentUnitOfWork.get().root();
        Acknowledgements pending = batch.getOrComputeResource(resource, name -> {
            Acknowledgements acknowledgements = new Acknowledgements();
            batch.onPrepareCommit(unitOfWork -> acknowledgements.await(acknowledgementLimit));
            return acknowledgements;
        });
        MonitorCallback monitored = monitor.onMessageIngested(event);
        try {
            // the non-transactional producer is shared: closing it is not this caller's to do
            pending.add(producers.createProducer().send(converter.createKafkaMessage(event, topic.get())), monitored);
        } catch (RuntimeException e) {
            monitored.reportFailure(e);
            throw e;
        }
        if (batch instanceof BatchingUnitOfWork<?> events && events.isLastMessage()) {
            pending.await(acknowledgementLimit);
        }
    }

    /** The sends of one batch not yet acknowledged, in the order they were made. */
    private static final class Acknowledgements {

        private final List<Future<RecordMetadata>> sends = new ArrayList<>();
        private final List<MonitorCallback> callbacks = new ArrayList<>();

        void add(Future<RecordMetadata> send, MonitorCallback callback) {
            sends.add(send);
            callbacks.add(callback);
        }

        /** Every send's outcome is reported to the monitor; any failure fails the batch. Nothing is pending afterwards. */
        void await(Duration limit) {
            long deadline = System.nanoTime() + limit.toNanos();
            int count = sends.size();
            Exception firstFailure = null;
            int failed = 0;
            try {
                for (int i = 0; i < count; i++) {
                    try {
                        sends.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        callbacks.get(i).reportSuccess();
                    } catch (InterruptedException e) {
                        callbacks.subList(i, count).forEach(callback -> callback.reportFailure(e));
                        Thread.currentThread().interrupt();
                        throw new EventPublicationFailedException("Interrupted while waiting for the broker to acknowledge "
                                + (count - i) + " of " + count + " events of this batch; the batch is sent again", e);
                    } catch (ExecutionException | TimeoutException e) {
                        callbacks.get(i).reportFailure(e);
                        failed++;
                        firstFailure = firstFailure == null ? e : firstFailure;
                    }
                }
            } finally {
                sends.clear();
                callbacks.clear();
            }
            if (firstFailure != null) {
                Throwable cause = firstFailure instanceof ExecutionException ? firstFailure.getCause() : firstFailure;
                throw new EventPublicationFailedException(failed + " of " + count + " events of this batch were not acknowledged "
                        + "by the broker within " + limit.toMillis() + " ms (first: " + cause + "); the batch is sent again", cause);
            }
        }
    }
}
