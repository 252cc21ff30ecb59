package io.dlqdesk.app;

import io.dlqdesk.parked.RetryBatch;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.extensions.kafka.eventhandling.DefaultKafkaMessageConverter;
import org.axonframework.extensions.kafka.eventhandling.producer.ConfirmationMode;
import org.axonframework.extensions.kafka.eventhandling.producer.ProducerFactory;
import org.axonframework.messaging.EventPublicationFailedException;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.monitoring.NoOpMessageMonitor;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How a processor batch reaches the events topic: sent together, acknowledged once before the batch's token is
 * committed, rolled back when a send fails. Kafka's {@link MockProducer} stands in for the producer, so a test decides
 * when each send is acknowledged; the broker itself is in {@code EventsTopicOutageIT}.
 */
class BatchAcknowledgedKafkaPublisherTest {

    private static final String TOPIC = "incident-events";

    private final MockProducer<String, byte[]> producer = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
    private final RecordingTransactions transactions = new RecordingTransactions();

    @Test
    void aBatchIsSentWholeBeforeAnyAcknowledgementAndCommitsOnceAllAreAcknowledged() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.WAIT_FOR_ACK, Duration.ofSeconds(30));
        CompletableFuture<ResultMessage<Object>> batch = CompletableFuture.supplyAsync(() -> publish(publisher, events(3)));

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 3);
        assertThat(batch).as("the batch waits for its acknowledgements").isNotDone();
        assertThat(transactions.outcomes).as("nor is the token stored meanwhile (its row would stay locked)").isEmpty();

        producer.completeNext();
        producer.completeNext();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !batch.isDone()); // one unacknowledged
        producer.completeNext();

        await().atMost(Duration.ofSeconds(10)).until(() -> transactions.outcomes.contains("commit"));
        assertThat(transactions.outcomes).containsExactly("token stored", "commit");
        assertThat(producer.history()).extracting(record -> record.topic()).containsOnly(TOPIC);
    }

    @Test
    void aBatchWithOneFailedSendIsRolledBackAfterEverySendReported() throws Exception {
        PublishOutcomes outcomes = new PublishOutcomes();
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = new BatchAcknowledgedKafkaPublisher<>(
                factory(producer, ConfirmationMode.WAIT_FOR_ACK), converter(), event -> Optional.of(TOPIC), outcomes, serializer(),
                Duration.ofSeconds(30));
        CompletableFuture<ResultMessage<Object>> batch = CompletableFuture.supplyAsync(() -> publish(publisher, events(3)));

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 3);
        producer.completeNext();
        producer.errorNext(new NotEnoughReplicasException("one replica left"));
        producer.completeNext();

        ResultMessage<Object> result = batch.get(10, TimeUnit.SECONDS);
        assertThat(transactions.outcomes).containsExactly("rollback");
        assertThat(result.isExceptional()).isTrue();
        assertThat(result.exceptionResult()).isInstanceOf(RetryBatch.class)
                .hasMessageContaining("1 of 3 events").hasMessageContaining("one replica left");
        assertThat(outcomes.reported).containsExactly("event-0 acknowledged", "event-1 failed", "event-2 acknowledged");
    }

    @Test
    void aRecordRefusedForItsOwnSakeIsSentAloneNextAndFailsOnlyItsOwnHandler() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.WAIT_FOR_ACK, Duration.ofSeconds(30));
        List<EventMessage<?>> events = events(3);
        CompletableFuture<ResultMessage<Object>> first = CompletableFuture.supplyAsync(() -> publish(publisher, events));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 3);
        producer.errorNext(new RecordTooLargeException("larger than max.message.bytes"));
        producer.completeNext();
        producer.completeNext();
        assertThat(first.get(10, TimeUnit.SECONDS).exceptionResult()).isInstanceOf(RetryBatch.class)
                .hasMessageContaining("1 refused for their own sake are sent alone next");
        producer.clear();

        // run again: the culprit goes alone and is awaited in its own handler, which fails with the broker's refusal
        CompletableFuture<ResultMessage<Object>> second = CompletableFuture.supplyAsync(() -> publish(publisher, events));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        assertThat(second).as("the culprit's own send is awaited before anything else is sent").isNotDone();
        producer.errorNext(new RecordTooLargeException("larger than max.message.bytes"));
        assertThat(second.get(10, TimeUnit.SECONDS).exceptionResult()).isInstanceOf(EventPublicationFailedException.class)
                .isNotInstanceOf(RetryBatch.class).hasMessageContaining(events.get(0).getIdentifier())
                .hasRootCauseInstanceOf(RecordTooLargeException.class);
        producer.clear();

        // parked, the rest of the batch goes out together
        CompletableFuture<ResultMessage<Object>> rest = CompletableFuture.supplyAsync(() -> publish(publisher, events.subList(1, 3)));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 2);
        producer.completeNext();
        producer.completeNext();
        assertThat(rest.get(10, TimeUnit.SECONDS).isExceptional()).isFalse();
    }

    @Test
    void aRecordSentAloneThatTheBrokerCouldNotTakeRunsTheBatchAgain() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.WAIT_FOR_ACK, Duration.ofSeconds(30));
        List<EventMessage<?>> events = events(2);
        CompletableFuture<ResultMessage<Object>> first = CompletableFuture.supplyAsync(() -> publish(publisher, events));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 2);
        producer.errorNext(new RecordTooLargeException("larger than max.message.bytes"));
        producer.completeNext();
        first.get(10, TimeUnit.SECONDS);
        producer.clear();

        CompletableFuture<ResultMessage<Object>> second = CompletableFuture.supplyAsync(() -> publish(publisher, events));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 1);
        producer.errorNext(new NotEnoughReplicasException("one replica left"));

        assertThat(second.get(10, TimeUnit.SECONDS).exceptionResult()).isInstanceOf(RetryBatch.class).hasMessageContaining("sent alone");
    }

    @Test
    void aBatchThatFailedForTheBrokersSakeIsSentTogetherAgain() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.WAIT_FOR_ACK, Duration.ofSeconds(30));
        List<EventMessage<?>> events = events(3);
        CompletableFuture<ResultMessage<Object>> first = CompletableFuture.supplyAsync(() -> publish(publisher, events));
        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 3);
        producer.errorNext(new NotEnoughReplicasException("one replica left"));
        producer.completeNext();
        producer.completeNext();
        assertThat(first.get(10, TimeUnit.SECONDS).exceptionResult()).isInstanceOf(RetryBatch.class);
        producer.clear();

        CompletableFuture<ResultMessage<Object>> second = CompletableFuture.supplyAsync(() -> publish(publisher, events));

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 3);
        assertThat(second).as("all three sent before any acknowledgement: nothing went alone").isNotDone();
        producer.completeNext();
        producer.completeNext();
        producer.completeNext();
        assertThat(second.get(10, TimeUnit.SECONDS).isExceptional()).isFalse();
    }

    @Test
    void aBatchNotAcknowledgedWithinTheLimitIsRolledBack() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.WAIT_FOR_ACK, Duration.ofMillis(300));

        ResultMessage<Object> result = publish(publisher, events(2)); // nothing is ever acknowledged

        assertThat(transactions.outcomes).containsExactly("rollback");
        assertThat(result.exceptionResult()).isInstanceOf(RetryBatch.class)
                .hasMessageContaining("2 of 2 events").hasMessageContaining("within 300 ms");
    }

    @Test
    void aSendRefusedAtOnceFailsTheBatchWithoutWaiting() {
        MockProducer<String, byte[]> refusing = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
        refusing.sendException = new org.apache.kafka.common.errors.TimeoutException("no metadata within max.block.ms");
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = new BatchAcknowledgedKafkaPublisher<>(
                factory(refusing, ConfirmationMode.WAIT_FOR_ACK), converter(), event -> Optional.of(TOPIC),
                NoOpMessageMonitor.INSTANCE, serializer(), Duration.ofSeconds(30));

        ResultMessage<Object> result = publish(publisher, events(2));

        assertThat(transactions.outcomes).containsExactly("rollback");
        assertThat(result.exceptionResult()).hasMessageContaining("no metadata within max.block.ms");
    }

    @Test
    void aBatchWhoseLastEventIsNotPublishedStillWaitsBeforeItCommits() throws Exception {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = new BatchAcknowledgedKafkaPublisher<>(
                factory(producer, ConfirmationMode.WAIT_FOR_ACK), converter(),
                event -> event.getPayload().equals("event-2") ? Optional.empty() : Optional.of(TOPIC),
                NoOpMessageMonitor.INSTANCE, serializer(), Duration.ofSeconds(30));
        CompletableFuture<ResultMessage<Object>> batch = CompletableFuture.supplyAsync(() -> publish(publisher, events(3)));

        await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 2);
        producer.completeNext();
        producer.errorNext(new NotEnoughReplicasException("one replica left"));

        assertThat(batch.get(10, TimeUnit.SECONDS).exceptionResult()).isInstanceOf(RetryBatch.class)
                .hasMessageContaining("1 of 2 events");
        assertThat(transactions.outcomes).containsExactly("token stored", "rollback");
    }

    @Test
    void eventsWithoutATopicAreNotSent() {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = new BatchAcknowledgedKafkaPublisher<>(
                factory(producer, ConfirmationMode.WAIT_FOR_ACK), converter(), event -> Optional.empty(),
                NoOpMessageMonitor.INSTANCE, serializer(), Duration.ofSeconds(30));

        publish(publisher, events(2));

        assertThat(producer.history()).isEmpty();
        assertThat(transactions.outcomes).containsExactly("token stored", "commit");
    }

    @Test
    void withoutWaitingForAcknowledgementsTheBatchCommitsUnacknowledged() {
        BatchAcknowledgedKafkaPublisher<String, byte[]> publisher = publisher(ConfirmationMode.NONE, Duration.ofSeconds(30));

        publish(publisher, events(2)); // the extension's fire-and-forget: nothing is ever acknowledged

        assertThat(producer.history()).hasSize(2);
        assertThat(transactions.outcomes).containsExactly("token stored", "commit");
    }

    private BatchAcknowledgedKafkaPublisher<String, byte[]> publisher(ConfirmationMode mode, Duration limit) {
        return new BatchAcknowledgedKafkaPublisher<>(factory(producer, mode), converter(), event -> Optional.of(TOPIC),
                NoOpMessageMonitor.INSTANCE, serializer(), limit);
    }

    /** One processor batch as a pooled processor runs it: one unit of work, one transaction, the token stored as it prepares to commit. */
    private ResultMessage<Object> publish(BatchAcknowledgedKafkaPublisher<String, byte[]> publisher, List<EventMessage<?>> batch) {
        BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(batch);
        unitOfWork.attachTransaction(transactions);
        unitOfWork.onPrepareCommit(u -> transactions.outcomes.add("token stored"));
        return unitOfWork.executeWithResult(() -> {
            publisher.send(unitOfWork.getMessage());
            return null;
        });
    }

    private static List<EventMessage<?>> events(int count) {
        return IntStream.range(0, count).<EventMessage<?>>mapToObj(i -> GenericEventMessage.asEventMessage("event-" + i)).toList();
    }

    /** Hands out {@code producer} shared, as the extension's factory does outside transactions: its close does nothing. */
    @SuppressWarnings("unchecked")
    private static ProducerFactory<String, byte[]> factory(Producer<String, byte[]> producer, ConfirmationMode mode) {
        Producer<String, byte[]> shared = (Producer<String, byte[]>) Proxy.newProxyInstance(Producer.class.getClassLoader(),
                new Class<?>[] {Producer.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(producer, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return new ProducerFactory<>() {
            @Override
            public Producer<String, byte[]> createProducer() {
                return shared;
            }

            @Override
            public ConfirmationMode confirmationMode() {
                return mode;
            }

            @Override
            public void shutDown() {
            }
        };
    }

    private static JacksonSerializer serializer() {
        return JacksonSerializer.defaultSerializer();
    }

    private static DefaultKafkaMessageConverter converter() {
        return DefaultKafkaMessageConverter.builder().serializer(serializer()).build();
    }

    /** The outcome of each transaction a batch started. */
    private static final class RecordingTransactions implements TransactionManager {

        final List<String> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public Transaction startTransaction() {
            return new Transaction() {
                @Override
                public void commit() {
                    outcomes.add("commit");
                }

                @Override
                public void rollback() {
                    outcomes.add("rollback");
                }
            };
        }
    }
}
