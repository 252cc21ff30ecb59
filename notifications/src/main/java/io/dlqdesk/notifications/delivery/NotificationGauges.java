package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deliveries waiting per receiver, and how long the oldest has waited, read from {@code notification_delivery} by
 * {@link #refresh()} on the gauge schedule. Every configured receiver has a series (0 when nothing waits); a receiver
 * removed from the configuration keeps one while rows of it wait, so they are never out of sight.
 */
public final class NotificationGauges {

    private final JdbcTemplate jdbc;
    private final List<String> receivers;
    private final MultiGauge pending;
    private final MultiGauge oldestAge;

    public NotificationGauges(JdbcTemplate jdbc, List<Webhook> webhooks, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.receivers = webhooks.stream().map(Webhook::name).toList();
        this.pending = MultiGauge.builder("dlq.notifications.pending").description("notifications not delivered yet, per receiver").register(meters);
        this.oldestAge = MultiGauge.builder("dlq.notifications.oldest_pending.age").baseUnit("seconds")
                .description("how long the receiver's oldest undelivered notification has waited (database clock, as of the last refresh)")
                .register(meters);
    }

    /** One query; a failure leaves the last values in place and reaches the caller. */
    public void refresh() {
        Map<String, double[]> byReceiver = new LinkedHashMap<>();
        receivers.forEach(receiver -> byReceiver.put(receiver, new double[2]));
        jdbc.query("SELECT receiver, COUNT(*) AS waiting, TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(6)) AS oldest_us"
                + " FROM notification_delivery WHERE status = 'PENDING' GROUP BY receiver", row -> {
            byReceiver.put(row.getString("receiver"), new double[] {row.getLong("waiting"), Math.max(0, row.getLong("oldest_us")) / 1e6});
        });
        List<MultiGauge.Row<?>> waiting = new ArrayList<>();
        List<MultiGauge.Row<?>> ages = new ArrayList<>();
        byReceiver.forEach((receiver, values) -> {
            waiting.add(MultiGauge.Row.of(Tags.of("receiver", receiver), values[0]));
            ages.add(MultiGauge.Row.of(Tags.of("receiver", receiver), values[1]));
        });
        pending.register(waiting, true);
        oldestAge.register(ages, true);
    }
}
