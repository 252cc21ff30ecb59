package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.backoff.BackOff;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** One {@link WebhookSender} per configured receiver, and the clean-up of decided rows, on every instance. */
public final class WebhookSenders implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookSenders.class);
    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
    private static final int PURGE_BATCH = 1000;
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final List<Webhook> webhooks;
    private final Deliveries deliveries;
    private final NotificationMetrics metrics;
    private final WebhookSender.Settings settings;
    private final Duration keepDecided;
    private final List<WebhookSender> running = new ArrayList<>();
    private final PeriodicTask housekeeping;

    public WebhookSenders(List<Webhook> webhooks, Deliveries deliveries, NotificationMetrics metrics, Duration pollInterval,
                          BackOff backOff, Duration retryWindow, Duration keepDecided) {
        this.webhooks = List.copyOf(webhooks);
        this.deliveries = deliveries;
        this.metrics = metrics;
        this.settings = new WebhookSender.Settings(pollInterval, backOff, retryWindow);
        this.keepDecided = keepDecided;
        this.housekeeping = PeriodicTask.named("webhook-housekeeping-").every(PURGE_EVERY).runs(this::purge);
    }

    @Override
    public synchronized void start() {
        for (Webhook webhook : webhooks) {
            WebhookSender sender = new WebhookSender(webhook, deliveries, metrics, settings, Clock.systemUTC());
            sender.start();
            running.add(sender);
        }
        housekeeping.start();
        if (!webhooks.isEmpty()) {
            log.info("webhook senders started for {}", webhooks);
        }
    }

    private void purge() {
        try {
            while (deliveries.purgeDecided(keepDecided, PURGE_BATCH) == PURGE_BATCH) {
                // more to delete: another batch, each its own short statement
            }
        } catch (RuntimeException e) {
            log.warn("could not delete decided notification deliveries; trying again in {}: {}", PURGE_EVERY, e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        running.forEach(WebhookSender::stop);
        try { // a try cut short gives its row back before the database connections close
            for (WebhookSender sender : running) {
                if (!sender.awaitStopped(STOP_WAIT)) {
                    log.warn("a webhook sender did not stop within {}; its row is due again when its lease ends", STOP_WAIT);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.clear();
        housekeeping.stop();
    }

    @Override
    public boolean isRunning() {
        return housekeeping.isRunning();
    }
}
