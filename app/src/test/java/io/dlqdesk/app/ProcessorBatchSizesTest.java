package io.dlqdesk.app;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class ProcessorBatchSizesTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ProcessorBatchSizes interceptor = new ProcessorBatchSizes(meters, "incident-summary");

    @Test
    void aBatchIsRecordedOnceWithTheNumberOfItsEvents() throws Exception {
        handleBatchOf(3);
        handleBatchOf(1);

        DistributionSummary sizes = meters.find(ProcessorBatchSizes.METRIC).tag("processing_group", "incident-summary").summary();
        assertThat(sizes).isNotNull();
        assertThat(sizes.count()).isEqualTo(2);
        assertThat(sizes.totalAmount()).isEqualTo(4);
        assertThat(sizes.max()).isEqualTo(3);
    }

    @Test
    void batchesAreCountedInTheirSizesBuckets() throws Exception {
        handleBatchOf(1);
        handleBatchOf(2);
        handleBatchOf(10);
        handleBatchOf(11);
        handleBatchOf(600);

        Map<Double, Double> atOrBelow = new LinkedHashMap<>();
        for (CountAtBucket bucket : meters.find(ProcessorBatchSizes.METRIC).summary().takeSnapshot().histogramCounts()) {
            atOrBelow.put(bucket.bucket(), bucket.count());
        }
        assertThat(atOrBelow).containsExactly(entry(1.0, 1.0), entry(10.0, 3.0), entry(100.0, 4.0), entry(500.0, 4.0), entry(1000.0, 5.0));
    }

    @Test
    void anEventHandledOutsideABatchIsNotABatch() throws Exception {
        DefaultUnitOfWork<EventMessage<?>> single = DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("alone"));
        single.executeWithResult(() -> interceptor.handle(single, () -> null));

        assertThat(meters.find(ProcessorBatchSizes.METRIC).summary().count()).isZero();
    }

    private void handleBatchOf(int events) throws Exception {
        List<EventMessage<?>> batch = IntStream.range(0, events).<EventMessage<?>>mapToObj(GenericEventMessage::asEventMessage).toList();
        BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(batch);
        List<Integer> handled = new ArrayList<>();
        unitOfWork.executeWithResult(() -> interceptor.handle(unitOfWork, () -> handled.add(1)));
        assertThat(handled).hasSize(events); // every event still reaches its handler
    }
}
