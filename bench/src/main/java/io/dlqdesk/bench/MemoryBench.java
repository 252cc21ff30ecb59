package io.dlqdesk.bench;

import io.dlqdesk.testsupport.DltRecord;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap while ingesting with the database paused (SIGSTOP, so connections hang rather than fail): the
 * ingest loop must hold its in-flight and awaiting-commit records bounded, not buffer the topic.
 * Measured over this whole JVM — the embedded broker and the load generator included — so the
 * service's own share is smaller.
 */
final class MemoryBench {

    static final String TOPIC = "bench-memory.dlq";

    record Result(double peakLiveMb, double peakUsedMb, double maxHeapMb, boolean paused, double pausedSeconds, int records) {
    }

    private MemoryBench() {
    }

    static Result run(ProductUnderTest product, int records, int pauseSeconds) throws Exception {
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP).toList();
        AtomicLong peakLive = new AtomicLong();
        AtomicLong peakUsed = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                long live = heap.stream().map(MemoryPoolMXBean::getCollectionUsage).filter(java.util.Objects::nonNull).mapToLong(MemoryUsage::getUsed).sum();
                peakLive.accumulateAndGet(live, Math::max);
                peakUsed.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        System.gc(); // start from the live set, not from the previous benchmarks' garbage
        sampler.start();
        long ingestedBefore = product.ingested();
        Optional<ProcessHandle> database = product.databaseServer;
        long pausedNanos = 0;
        try (KafkaProducer<byte[], byte[]> producer = Records.producer(product.broker)) {
            for (int i = 0; i < records; i++) {
                producer.send(DltRecord.failure("bench-memory-orig", i % Records.PARTITIONS, i, "bench-memory-group").to(TOPIC, i % Records.PARTITIONS));
            }
            producer.flush();
            Progress.until(() -> product.ingested() - ingestedBefore >= Math.min(records / 10, 500), Duration.ofMinutes(2));
            if (database.isPresent()) {
                long pausedAt = System.nanoTime();
                signal(database.get(), "STOP");
                try {
                    TimeUnit.SECONDS.sleep(pauseSeconds);
                } finally {
                    signal(database.get(), "CONT");
                    pausedNanos = System.nanoTime() - pausedAt;
                }
            }
            Progress.await(() -> product.ingested() - ingestedBefore, records, Duration.ofMinutes(3));
        } finally {
            sampling.set(false);
            sampler.join();
        }
        return new Result(peakLive.get() / 1048576.0, peakUsed.get() / 1048576.0,
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax() / 1048576.0, database.isPresent(), pausedNanos / 1e9, records);
    }

    private static void signal(ProcessHandle process, String signal) throws Exception {
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " exited " + exit);
        }
    }
}
