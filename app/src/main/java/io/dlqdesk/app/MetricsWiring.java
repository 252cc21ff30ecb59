package io.dlqdesk.app;

import io.dlqdesk.ingest.loop.DlqConsumerLoop;
import io.dlqdesk.ingest.quarantine.QuarantineGauges;
import io.dlqdesk.notifications.NotificationProperties;
import io.dlqdesk.notifications.delivery.NotificationGauges;
import io.dlqdesk.projections.incident.OpenIncidentGauges;
import io.dlqdesk.projections.job.ReplayJobGauges;
import io.dlqdesk.replay.outbox.OutboxGauges;
import io.dlqdesk.parked.ParkedEventGauges;
import io.dlqdesk.parked.ParkedEvents;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The gauges read from the database, each owned by the module whose table it reads, refreshed on one schedule; with
 * them the ingest loop's per-partition lag, capped like the others.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MetricsProperties.class)
class MetricsWiring {

    @Bean
    GaugeRefresher gaugeRefresher(MetricsProperties properties, DataSource dataSource, MeterRegistry meters, Serializer serializer,
                                  ObjectProvider<DlqConsumerLoop> ingest, NotificationProperties notifications, ParkedEvents parked) {
        // every refresh query is bounded by the same timeout
        JdbcTemplate reads = new JdbcTemplate(dataSource);
        reads.setQueryTimeout(Math.toIntExact(Math.max(1, properties.queryTimeout().toSeconds())));
        Map<String, Runnable> families = new LinkedHashMap<>();
        // first: in memory, so a slow database never delays it
        ingest.ifAvailable(loop -> families.put("dlq.ingest.partition.lag",
                new IngestLagGauges(loop.health(), properties.maxSeriesPerFamily(), meters)::refresh));
        families.put("dlq.incidents.open", new OpenIncidentGauges(reads, properties.maxSeriesPerFamily(), meters, Clock.systemUTC())::refresh);
        families.put("dlq.ingest.quarantined_records", new QuarantineGauges(reads, meters)::refresh);
        families.put("dlq.replay.outbox", new OutboxGauges(reads, meters)::refresh);
        families.put("dlq.notifications", new NotificationGauges(reads, notifications.webhooks(), meters)::refresh);
        families.put("dlq.replay.jobs", new ReplayJobGauges(reads, meters)::refresh);
        families.put("dlq.processor.lag", new ProcessorLagGauges(reads, properties.maxSeriesPerFamily(), new TokenPositions(reads, serializer), meters, Clock.systemUTC())::refresh);
        families.put("dlq.parked.events", new ParkedEventGauges(parked, meters)::refresh);
        return new GaugeRefresher(families, properties.refreshInterval());
    }
}
