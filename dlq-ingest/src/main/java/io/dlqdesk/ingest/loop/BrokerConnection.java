package io.dlqdesk.ingest.loop;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Whether one consumer has an open broker connection, from its own {@code connection-count}: a poll
 * with no broker still returns, empty. One per consumer, used by the loop thread only.
 */
final class BrokerConnection {

    private static final Logger log = LoggerFactory.getLogger(BrokerConnection.class);

    private final Consumer<?, ?> consumer;
    private Metric connectionCount;
    private boolean noMetric;

    BrokerConnection(Consumer<?, ?> consumer) {
        this.consumer = consumer;
    }

    boolean open() {
        if (connectionCount == null && !noMetric) {
            connectionCount = consumer.metrics().entrySet().stream()
                    .filter(entry -> entry.getKey().name().equals("connection-count") && entry.getKey().group().equals("consumer-metrics"))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (connectionCount == null) { // not a KafkaConsumer (a test double), or the metric was renamed
                noMetric = true;
                log.warn("the DLQ consumer has no consumer-metrics/connection-count; readiness cannot see a broker outage");
            }
        }
        return noMetric || connectionCount.metricValue() instanceof Number number && number.doubleValue() > 0;
    }
}
