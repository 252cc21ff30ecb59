package io.dlqdesk.app;

import io.dlqdesk.parked.Culprits;
import io.dlqdesk.parked.RetryBatch;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
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
import java.util.function.Consumer;

/**
 * The events topic's publisher in {@code wait_for_ack} mode. axon-kafka 4.9.0 waits for each event's acknowledgement
 * before it sends the next, so a publisher segment sent one event per round trip (about 140 events/s here) and a storm's
 * events reached the topic minutes after the storm. This one sends a processor batch's events one after another and
 * waits for all their acknowledgements once, at the batch's last event: before the processor stores its token (so the
 * token's row is not locked while it waits), in the transaction that stores it, so a send that fails rolls the batch
 * back and the whole batch is sent again (at least once, as with the extension). Should a batch end without its last
 * event reaching this publisher, the wait happens when the batch prepares to commit. The other confirmation modes, and
 * a send outside a unit of work, are the extension's own.
 * <p>
 * A send the broker refuses for the event's own sake (too large for the topic, say) would fail its batch for ever, and
 * the dead-letter queue parks only what fails in the event's own handler. So such events are marked as culprits, the
 * batch runs again ({@link RetryBatch}), and each culprit is then sent alone and awaited in its own handler: it is
 * parked after the bounded attempts, and the rest of the batch goes out. A send that failed for the broker's sake
 * (unreachable, timed out) marks nothing: the batch runs again until the broker is back.
 */
final class BatchAcknowledgedKafkaPublisher<K, V> extends KafkaPublisher<K, V> {

    private final ProducerFactory<K, V> producers;
    private final KafkaMessageConverter<K, V> converter;
    private final TopicResolver topics;
    private final MessageMonitor<? super EventMessage<?>> monitor;
    private final Duration acknowledgementLimit;
    private final String resource = BatchAcknowledgedKafkaPublisher.class.getName() + "@" + System.identityHashCode(this);
    private final Culprits culprits = new Culprits();

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
        if (culprits.isMarked(event.getIdentifier())) {
            Acknowledgements alone = new Acknowledgements();
            sendInto(alone, event, topic.get());
            alone.awaitAlone(acknowledgementLimit);
            culprits.forgetOnCommit(event.getIdentifier(), batch);
            return;
        }
        Acknowledgements pending = batch.getOrComputeResource(resource, name -> {
            Acknowledgements acknowledgements = new Acknowledgements();
            batch.onPrepareCommit(unitOfWork -> acknowledgements.await(acknowledgementLimit, culprits::mark));
            return acknowledgements;
        });
        sendInto(pending, event, topic.get());
        if (batch instanceof BatchingUnitOfWork<?> events && events.isLastMessage()) {
            pending.await(acknowledgementLimit, culprits::mark);
        }
    }

    private void sendInto(Acknowledgements acknowledgements, EventMessage<?> event, String topic) {
        MonitorCallback monitored = monitor.onMessageIngested(event);
        try {
            // the non-transactional producer is shared: closing it is not this caller's to do
            acknowledgements.add(event.getIdentifier(), producers.createProducer().send(converter.createKafkaMessage(event, topic)), monitored);
        } catch (RuntimeException e) {
            monitored.reportFailure(e);
            throw e;
        }
    }

    /**
     * Refused for the record's own sake (its size or form), so sending it again cannot help. Anything else, an
     * authorisation or a topic the broker does not know included, is the deployment's to fix and may pass later.
     */
    static boolean theRecordsOwn(Throwable failure) {
        return failure instanceof RecordTooLargeException || failure instanceof RecordBatchTooLargeException
                || failure instanceof InvalidRecordException || failure instanceof CorruptRecordException
                || failure instanceof SerializationException;
    }

    /** The sends of one batch not yet acknowledged, in the order they were made. */
    private static final class Acknowledgements {

        private final List<String> eventIds = new ArrayList<>();
        private final List<Future<RecordMetadata>> sends = new ArrayList<>();
        private final List<MonitorCallback> callbacks = new ArrayList<>();

        void add(String eventId, Future<RecordMetadata> send, MonitorCallback callback) {
            eventIds.add(eventId);
            sends.add(send);
            callbacks.add(callback);
        }

        /**
         * Every send's outcome is reported to the monitor; any failure fails the batch, and the events the broker refused
         * for their own sake are handed to {@code culprits}. Nothing is pending afterwards.
         */
        void await(Duration limit, Consumer<List<String>> culprits) {
            long deadline = System.nanoTime() + limit.toNanos();
            int count = sends.size();
            Throwable firstFailure = null;
            List<String> refused = new ArrayList<>();
            int failed = 0;
            try {
                for (int i = 0; i < count; i++) {
                    try {
                        sends.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        callbacks.get(i).reportSuccess();
                    } catch (InterruptedException e) {
                        callbacks.subList(i, count).forEach(callback -> callback.reportFailure(e));
                        Thread.currentThread().interrupt();
                        throw new RetryBatch("Interrupted while waiting for the broker to acknowledge " + (count - i) + " of " + count
                                + " events of this batch; the batch is sent again", e);
                    } catch (ExecutionException | TimeoutException e) {
                        callbacks.get(i).reportFailure(e);
                        failed++;
                        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                        firstFailure = firstFailure == null ? cause : firstFailure;
                        if (theRecordsOwn(cause)) {
                            refused.add(eventIds.get(i));
                        }
                    }
                }
            } finally {
                eventIds.clear();
                sends.clear();
                callbacks.clear();
            }
            if (firstFailure != null) {
                culprits.accept(refused);
                throw new RetryBatch(failed + " of " + count + " events of this batch were not acknowledged by the broker within "
                        + limit.toMillis() + " ms (first: " + firstFailure + "); " + (refused.isEmpty() ? ""
                        : refused.size() + " refused for their own sake are sent alone next; ") + "the batch is sent again",
                        new EventPublicationFailedException("not acknowledged", firstFailure));
            }
        }

        /**
         * The one send of an event sent alone: refused for its own sake, it fails its handler (the event is parked after the
         * bounded attempts); failed for the broker's sake, the batch runs again.
         */
        void awaitAlone(Duration limit) {
            Throwable cause;
            try {
                sends.get(0).get(limit.toNanos(), TimeUnit.NANOSECONDS);
                callbacks.get(0).reportSuccess();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cause = e;
            } catch (ExecutionException | TimeoutException e) {
                cause = e instanceof ExecutionException ? e.getCause() : e;
            }
            callbacks.get(0).reportFailure(cause);
            if (theRecordsOwn(cause)) {
                throw new EventPublicationFailedException("the broker refused event " + eventIds.get(0) + ": " + cause, cause);
            }
            throw new RetryBatch("event " + eventIds.get(0) + " sent alone was not acknowledged (" + cause + "); the batch is sent again",
                    cause);
        }
    }
}
