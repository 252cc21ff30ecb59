package io.dlqdesk.ingest.loop;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Records behind the log end per partition the loop holds: the consumer's own lag behind the log end it last saw
 * ({@code currentLag}) plus the records received and not committed yet. A paused partition is not fetched, so the
 * consumer would not see its log end move while it waits: its end offsets are asked for at most once per
 * {@link #REFRESH}, without waiting (the answer lands in the consumer's own state during a later poll). Owned by the
 * loop thread, as the consumer is.
 */
final class IngestLag {

    static final Duration REFRESH = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(IngestLag.class);

    private long lastRefresh = System.nanoTime() - REFRESH.toNanos();

    Map<TopicPartition, Long> measure(Consumer<?, ?> consumer, PartitionStates partitions) {
        Set<TopicPartition> paused = consumer.paused();
        long now = System.nanoTime();
        if (!paused.isEmpty() && now - lastRefresh >= REFRESH.toNanos()) {
            lastRefresh = now;
            try {
                consumer.endOffsets(paused, Duration.ZERO);
            } catch (WakeupException | InterruptException e) {
                throw e; // a stop, not a failed measurement
            } catch (RuntimeException e) {
                log.debug("could not ask for the log end of paused partitions {}: {}", paused, e.toString());
            }
        }
        return partitions.lag(consumer::currentLag);
    }
}
