package io.dlqdesk.bench;

import io.dlqdesk.projections.ProjectionsConfiguration;
import io.dlqdesk.testsupport.DltRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Ingest: N DLQ records over 6 partitions, one in ten a re-failure of a replayed incident (from the
 * replay round before), until every one is durably stored and until the incident list shows it;
 * against {@link BaselineLedger} on the same topic. Both are timed from their first durable record.
 */
final class IngestBench {

    static String topic(int round) {
        return "bench-ingest-" + round + ".dlq";
    }

    record Result(double productDurableSeconds, double productVisibleSeconds, double baselineSeconds, int records, int refailures,
                  Map<String, Object> productWork, Map<String, Object> baselineWork) {
    }

    private final ProductUnderTest product;
    private final int records;

    IngestBench(ProductUnderTest product, int records) {
        this.product = product;
        this.records = records;
    }

    Result run(int round, List<ProducerRecord<byte[], byte[]>> refailures) throws Exception {
        String topic = topic(round);
        int refailureCount = Math.min(refailures.size(), records / 10);
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>(records);
        int first = 0;
        for (int i = 0; i < records; i++) {
            if (i % 10 == 9 && i / 10 < refailureCount) {
                batch.add(refailures.get(i / 10));
            } else {
                batch.add(firstFailure("bench-orig-" + round, first, topic, i % Records.PARTITIONS));
                first++;
            }
        }

        // the product: its ingest loop already reads the (empty, pre-created) topic
        product.awaitProcessorsAtHead();
        long ingestedBefore = product.ingested();
        DatabaseWork productWork = DatabaseWork.start(product.jdbc);
        CpuWork productCpu = CpuWork.start(product.databaseServer);
        ProcessorBatches batches = ProcessorBatches.start(product);
        MeterDelta ingestBatches = MeterDelta.start(product, "dlq.ingest.batch_records");
        MeterDelta fallbacks = MeterDelta.start(product, "dlq.ingest.batch_fallbacks");
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(product.broker)) {
            for (ProducerRecord<byte[], byte[]> record : batch) {
                producer.send(record);
            }
            producer.flush();
        }
        Progress.Times durable = Progress.await(() -> product.ingested() - ingestedBefore, records, Duration.ofMinutes(2));
        long head = product.eventStoreHead();
        long visible = Progress.until(() -> product.reached(ProjectionsConfiguration.INCIDENT_READ_MODELS, head), Duration.ofMinutes(2));
        Map<String, Object> productPerRecord = productWork.per(records);
        productPerRecord.put("cpu", productCpu.per(records));
        productPerRecord.put("events_per_processor_transaction", batches.eventsPerTransaction());
        productPerRecord.put("processor_transactions_by_events", batches.transactionsBySize());
        productPerRecord.put("records_per_ingest_transaction", ingestBatches.mean());
        productPerRecord.put("ingest_batches_written_one_by_one", fallbacks.count());

        // the baseline, on the same records, once the product's processors are done with them
        product.awaitProcessorsAtHead();
        double baseline;
        DatabaseWork baselineWork = DatabaseWork.start(product.jdbc);
        CpuWork baselineCpu = CpuWork.start(product.databaseServer);
        Map<String, Object> baselineCpuPerRecord;
        try (BaselineLedger ledger = new BaselineLedger(product.broker, product.jdbc.getDataSource(), topic, "baseline-" + round)) {
            baseline = Progress.await(ledger::stored, records, Duration.ofMinutes(2)).seconds();
            baselineCpuPerRecord = baselineCpu.per(records); // while its threads live
        }
        Map<String, Object> baselinePerRecord = baselineWork.per(records);
        baselinePerRecord.put("cpu", baselineCpuPerRecord);
        return new Result(durable.seconds(), (visible - durable.first()) / 1e9, baseline, records, refailureCount, productPerRecord,
                baselinePerRecord);
    }

    /**
     * The write path alone: first failures only, with every event processor stopped (read models, saga, alerts,
     * Kafka publisher), records/s until durable, and the baseline on the same records; then the processors are
     * started again and caught up. What ingest costs without the work that follows each event.
     */
    double[] writePathAlone(int round) throws Exception {
        String topic = topic(round);
        product.awaitProcessorsAtHead();
        List<EventProcessor> processors = product.app.getBean(EventProcessingConfiguration.class).eventProcessors().values().stream()
                .filter(EventProcessor::isRunning).toList(); // started again after: not the bench's own, stopped, no-op processor
        processors.forEach(EventProcessor::shutDown);
        FirstFailures alone;
        try {
            alone = firstFailures(topic, "bench-alone-" + round, "baseline-alone-" + round, product::allReached);
        } finally {
            processors.forEach(EventProcessor::start);
        }
        product.awaitProcessorsAtHead();
        return new double[] {alone.durablePerSecond(), alone.baselinePerSecond()};
    }

    /**
     * Ingest's floor: as {@link #writePathAlone}, with every processor running as configured but its handlers
     * skipped ({@link IdleHandlers}), until durable and until every processor has read every event; the baseline
     * while the processors are idle. The events of this round never reach the read models (the rebuild, after,
     * replays every event).
     */
    FirstFailures idleHandlersFloor(int round) throws Exception {
        product.awaitProcessorsAtHead(); // the events before are handled, not skipped
        IdleHandlers idle = product.app.getBean(IdleHandlers.class);
        idle.set(true);
        try {
            return firstFailures(topic(round), "bench-idle-" + round, "baseline-idle-" + round, product::allReached);
        } finally {
            idle.set(false);
        }
    }

    /**
     * The incident list's floor: as {@link #idleHandlersFloor}, with the list, history and as-of processor doing its work and
     * every other processor's handlers skipped; records/s until durable and until in the list ({@code readByAllPerSecond}:
     * until that processor has handled every event). No ingest reaches the list sooner while the list's writes are as they are.
     */
    FirstFailures listAloneFloor(int round) throws Exception {
        product.awaitProcessorsAtHead();
        IdleHandlers idle = product.app.getBean(IdleHandlers.class);
        idle.allBut(ProjectionsConfiguration.INCIDENT_READ_MODELS);
        try {
            return firstFailures(topic(round), "bench-list-" + round, "baseline-list-" + round,
                    head -> product.reached(ProjectionsConfiguration.INCIDENT_READ_MODELS, head));
        } finally {
            idle.set(false);
        }
    }

    /**
     * The {@code n}th first failure of consumer group {@code bench-group} on the made-up topic {@code origin} (no source record
     * behind it: never replayed), as Spring Kafka's DeadLetterPublishingRecoverer writes it to {@code dlqTopic}.
     */
    static ProducerRecord<byte[], byte[]> firstFailure(String origin, int n, String dlqTopic, int dlqPartition) {
        return DltRecord.failure(origin, n % Records.PARTITIONS, n, "bench-group").to(dlqTopic, dlqPartition);
    }

    /** Records/s until durable, until every running processor has read every event, and the ledger's; CPU per record. */
    record FirstFailures(double durablePerSecond, double readByAllPerSecond, double baselinePerSecond, Map<String, Object> cpu) {
    }

    private FirstFailures firstFailures(String topic, String origin, String ledgerGroup, LongPredicate reached) throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            batch.add(firstFailure(origin, i, topic, i % Records.PARTITIONS));
        }
        long ingestedBefore = product.ingested();
        CpuWork cpu = CpuWork.start(product.databaseServer);
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(product.broker)) {
            batch.forEach(producer::send);
            producer.flush();
        }
        Progress.Times durable = Progress.await(() -> product.ingested() - ingestedBefore, records, Duration.ofMinutes(2));
        long head = product.eventStoreHead();
        long readByAll = Progress.until(() -> reached.test(head), Duration.ofMinutes(2));
        Map<String, Object> cpuPerRecord = cpu.per(records);
        double baseline;
        try (BaselineLedger ledger = new BaselineLedger(product.broker, product.jdbc.getDataSource(), topic, ledgerGroup)) {
            baseline = records / Progress.await(ledger::stored, records, Duration.ofMinutes(2)).seconds();
        }
        return new FirstFailures(records / durable.seconds(), records / ((readByAll - durable.first()) / 1e9), baseline, cpuPerRecord);
    }

}
