package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.CreateReplayJobCommand;
import io.dlqdesk.domain.job.ReplayJob;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.replay.config.ReplayJobProperties;
import jakarta.validation.constraints.Max;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.extensions.kafka.eventhandling.DefaultKafkaMessageConverter;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.axonframework.test.matchers.Matchers.predicate;

/**
 * Every event of a replay job at the largest selection the configuration allows is one Kafka record on the events topic that
 * the shipped publisher can send: serialized by the service's serializer and converter, measured as the producer measures it
 * against its {@code max.request.size}. A larger record would fail with RecordTooLargeException, which the publisher retries
 * for ever, holding back every later incident event.
 */
class ReplayJobEventsFitTheEventsTopicTest {

    @Test
    void aJobAtTheLargestSelectionIsRecordedInEventsThatEachFitOneRecordOfTheEventsTopic() throws Exception {
        int largest = (int) ReplayJobProperties.class.getDeclaredField("maxSelection").getAnnotation(Max.class).value();
        assertThat(largest).as("the bound of dlqdesk.replay.jobs.max-selection").isGreaterThanOrEqualTo(shipped().bindOrCreate(
                "dlqdesk.replay.jobs", ReplayJobProperties.class).maxSelection());
        List<IncidentId> manifest = IntStream.range(0, largest)
                .mapToObj(i -> IncidentId.of(new FailureKey("orders", i % 12, i, "billing"))).toList();
        List<EventMessage<?>> events = new ArrayList<>();
        new AggregateTestFixture<>(ReplayJob.class).givenNoPriorActivity()
                .when(new CreateReplayJobCommand(new ReplayJobId("job-" + "0".repeat(32)), "s".repeat(2_000), manifest,
                        ReplayJobLimits.defaults(), new OperatorAction("alice", "r".repeat(OperatorAction.MAX_REASON_LENGTH), Instant.now())))
                .expectEventsMatching(predicate(messages -> events.addAll((List<EventMessage<?>>) messages)));

        DefaultKafkaMessageConverter converter = DefaultKafkaMessageConverter.builder().serializer(new AxonSerialization().serializer()).build();
        int limit = maxRequestSize();
        int largestRecord = 0;
        for (EventMessage<?> event : events) {
            ProducerRecord<String, byte[]> record = converter.createKafkaMessage(event, "dlq-incidents.events");
            int size = AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE, CompressionType.NONE,
                    record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8), record.value(), record.headers().toArray());
            largestRecord = Math.max(largestRecord, size);
        }
        System.out.printf("a job of %,d incidents: %d events, the largest record %,d bytes (max.request.size %,d)%n", largest, events.size(),
                largestRecord, limit);
        assertThat(largestRecord).as("the largest of the %d events of a job of %,d incidents, against max.request.size %,d", events.size(),
                largest, limit).isLessThanOrEqualTo(limit);
        assertThat(events).as("the whole manifest is recorded").hasSizeGreaterThan(1);
    }

    /** What the shipped configuration gives the Axon Kafka publisher's producer, or kafka-clients' own default. */
    private static int maxRequestSize() throws Exception {
        return shipped().bind("axon.kafka.producer.properties.max.request.size", Integer.class)
                .orElse((Integer) ProducerConfig.configDef().defaultValues().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
    }

    private static Binder shipped() throws Exception {
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("shipped", new ClassPathResource("application.yml"));
        return new Binder(ConfigurationPropertySources.from(yaml));
    }
}
