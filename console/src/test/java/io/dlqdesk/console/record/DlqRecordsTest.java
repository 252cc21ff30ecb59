package io.dlqdesk.console.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.operations.record.HeaderRedaction;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class DlqRecordsTest {

    private static final RecordLocation LOCATION = new RecordLocation("orders.dlq", 0, 7);
    /** The bound: as many reads at once as the source reader keeps consumers between reads. */
    private static final int BOUND = 4;

    /** Counts the reads in progress (each holds a consumer) and holds them until released. */
    private static final class HeldReader extends SourceRecordReader {
        final AtomicInteger inProgress = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        HeldReader() {
            super("127.0.0.1:9", "test", Duration.ofSeconds(1)); // consumers are made on a read, and this one reads nothing
        }

        @Override
        public SourceRead read(RecordLocation location) {
            mostAtOnce.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inProgress.decrementAndGet();
            }
            return new SourceRead.Found(location, new ConsumerRecord<>(location.topic(), location.partition(), location.offset(), null, null));
        }
    }

    @Test
    void twentyViewersAtOnceHoldAtMostTheBoundOfConsumersAndTheRestAreToldToTryAgain() throws Exception {
        HeldReader reader = new HeldReader();
        DlqRecords records = new DlqRecords(reader, new RecordRenderer(1024, new HeaderRedaction(List.of(), new ObjectMapper())));
        ExecutorService viewers = Executors.newFixedThreadPool(20);
        try {
            List<Future<DlqRecords.Lookup>> views = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                views.add(viewers.submit(() -> records.read(LOCATION)));
            }
            // the bound's worth of views read; every other view gives up without a consumer
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (views.stream().filter(Future::isDone).count() < 20 - BOUND && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling a condition with a deadline
            }
            assertThat(views.stream().filter(Future::isDone).count()).as("views answered while the bound's worth read").isEqualTo(20 - BOUND);
            assertThat(reader.inProgress.get()).isEqualTo(BOUND);
            for (Future<DlqRecords.Lookup> view : views.stream().filter(Future::isDone).toList()) {
                assertThat(view.get().record()).isNull();
                assertThat(view.get().unavailable()).contains("try again");
            }
            reader.release.countDown();
            for (Future<DlqRecords.Lookup> view : views) {
                view.get(30, TimeUnit.SECONDS);
            }
            assertThat(reader.mostAtOnce.get()).isEqualTo(BOUND);
        } finally {
            reader.release.countDown();
            viewers.shutdownNow();
        }
    }

    @Test
    void viewersWithinTheBoundAllSeeTheRecordAndAFreedReaderServesTheNext() throws Exception {
        HeldReader reader = new HeldReader();
        reader.release.countDown(); // reads finish at once
        DlqRecords records = new DlqRecords(reader, new RecordRenderer(1024, new HeaderRedaction(List.of(), new ObjectMapper())));
        for (int i = 0; i < 3 * BOUND; i++) {
            assertThat(records.read(LOCATION).record()).isNotNull();
        }
    }
}
