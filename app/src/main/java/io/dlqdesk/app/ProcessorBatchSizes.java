package io.dlqdesk.app;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Records how many events each transaction of an event processor handled ({@code dlq.processor.batch_events}, by
 * processing group): every batch costs a token update and a commit, so small batches under load are where a processor's
 * database work per event goes. Counted once per batch, at its first event; events a segment does not handle are not in it.
 * Also a histogram of the sizes ({@link #BUCKETS}: one event, up to 10, 100, 500, 1,000 and more): a mean hides a storm
 * handled in batches of one between a few large ones.
 */
final class ProcessorBatchSizes implements MessageHandlerInterceptor<EventMessage<?>> {

    static final String METRIC = "dlq.processor.batch_events";
    /** Upper bounds (inclusive) of the histogram's buckets; the shipped read models' batches hold up to 1,000 events. */
    static final double[] BUCKETS = {1, 10, 100, 500, 1000};

    private final DistributionSummary sizes;

    ProcessorBatchSizes(MeterRegistry meters, String processingGroup) {
        this.sizes = DistributionSummary.builder(METRIC).description("events handled per event-processor transaction")
                .tag("processing_group", processingGroup).serviceLevelObjectives(BUCKETS).register(meters);
    }

    @Override
    public Object handle(UnitOfWork<? extends EventMessage<?>> unitOfWork, InterceptorChain interceptorChain) throws Exception {
        if (unitOfWork instanceof BatchingUnitOfWork<?> batch && batch.isFirstMessage()) {
            sizes.record(batch.getMessages().size());
        }
        return interceptorChain.proceed();
    }
}
