package io.dlqdesk.notifications;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code dlqdesk.notifications.*}: the webhooks, how deliveries to them are retried, and how many are sent one by one. Defaults are the shipped ones
 * (listed in docs/configuration.md). Each receiver is known by its {@code name}: its deliveries are rows under that name, so a
 * changed URL or secret applies to what is still pending.
 */
@Validated
@ConfigurationProperties("dlqdesk.notifications")
public record NotificationProperties(
        /* base of the console links in payloads, e.g. https://dlq-desk.example.com; none: payloads carry no link */
        URI consoleBaseUrl,
        @NotNull @DefaultValue("1s") Duration pollInterval,
        @NotNull @DefaultValue("5s") Duration initialBackoff,
        @NotNull @DefaultValue("5m") Duration maxBackoff,
        /* a delivery is tried at least this long; the first failed try after it gives up (logged, counted) */
        @NotNull @DefaultValue("24h") Duration retryWindow,
        /* delivered and given-up rows are deleted this long after their decision */
        @NotNull @DefaultValue("7d") Duration keepDecided,
        /* how often each instance looks at its ingest readiness for ingest-stalled / ingest-recovered */
        @NotNull @DefaultValue("5s") Duration ingestCheckInterval,
        /* per receiver and event: at most this many notifications per rate-window are sent one by one, the rest are held
           and sent as one message with their count when the window ends */
        @DefaultValue("5") int rateLimit,
        @NotNull @DefaultValue("5m") Duration rateWindow,
        @Valid @DefaultValue({}) List<Webhook> webhooks) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    public NotificationProperties {
        webhooks = webhooks == null ? List.of() : List.copyOf(webhooks);
        if (consoleBaseUrl != null) {
            requireHttp(consoleBaseUrl, "dlqdesk.notifications.console-base-url");
        }
        if (rateLimit < 1) {
            throw new IllegalArgumentException("dlqdesk.notifications.rate-limit must be at least 1 (a large one sends every notification on its own), was "
                    + rateLimit);
        }
        for (Duration positive : new Duration[] {pollInterval, initialBackoff, maxBackoff, retryWindow, keepDecided, ingestCheckInterval, rateWindow}) {
            if (positive != null && (positive.isZero() || positive.isNegative())) {
                throw new IllegalArgumentException("dlqdesk.notifications durations must be positive, was " + positive);
            }
        }
        if (initialBackoff != null && maxBackoff != null && initialBackoff.compareTo(maxBackoff) > 0) {
            throw new IllegalArgumentException("dlqdesk.notifications.initial-backoff (" + initialBackoff + ") must not exceed max-backoff ("
                    + maxBackoff + ")");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < webhooks.size(); i++) {
            Webhook webhook = webhooks.get(i);
            String where = "dlqdesk.notifications.webhooks[" + i + "]";
            if (webhook.name() == null || !NAME.matcher(webhook.name()).matches()) {
                throw new IllegalArgumentException(where + ".name must be 1-64 of a-z 0-9 - (it keys the receiver's deliveries), was '"
                        + webhook.name() + "'");
            }
            if (!names.add(webhook.name())) {
                throw new IllegalArgumentException(where + ".name '" + webhook.name() + "' is used by another webhook");
            }
            requireHttp(webhook.url(), where + ".url");
            if (webhook.secret() != null && webhook.secret().isBlank()) {
                throw new IllegalArgumentException(where + ".secret is blank: leave it out for unsigned deliveries");
            }
            if (webhook.timeout().compareTo(Duration.ofSeconds(1)) < 0 || webhook.timeout().compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException(where + ".timeout must be 1s to 5m, was " + webhook.timeout());
            }
        }
    }

    private static void requireHttp(URI uri, String property) {
        if (uri == null || uri.getScheme() == null || !Set.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(property + " must be an absolute http(s) URL, was " + uri);
        }
    }

    /** One receiver. */
    public record Webhook(
            String name,
            URI url,
            @NotEmpty @DefaultValue({"incident-reopened", "new-exception-group", "replay-job-paused", "ingest-stalled", "ingest-recovered"})
            Set<NotificationEvent> events,
            /* HMAC-SHA256 key: with it every delivery carries X-DlqDesk-Signature */
            String secret,
            @NotNull @DefaultValue("10s") Duration timeout,
            @NotNull @DefaultValue("generic") Preset preset) {

        public Webhook {
            events = events == null || events.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(events));
        }

        public boolean wants(NotificationEvent event) {
            return events.contains(event);
        }

        /** Never the secret, nor the URL's path (a Slack or Teams webhook URL is itself a credential). */
        @Override
        public String toString() {
            return "Webhook[name=" + name + ", host=" + (url == null ? null : url.getHost()) + ", events=" + events + ", signed=" + (secret != null) + ", timeout=" + timeout
                    + ", preset=" + preset + "]";
        }
    }

    /** The body's shape: the desk's own JSON, or what a Slack or Teams incoming webhook accepts. */
    public enum Preset {
        GENERIC, SLACK, TEAMS
    }
}
