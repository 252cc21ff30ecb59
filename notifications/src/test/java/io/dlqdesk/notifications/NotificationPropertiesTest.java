package io.dlqdesk.notifications;

import io.dlqdesk.notifications.NotificationProperties.Preset;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each refusal of a webhook setting, paired with the setting it allows. */
class NotificationPropertiesTest {

    private static Webhook webhook(String name, String url, String secret, Duration timeout) {
        return new Webhook(name, url == null ? null : URI.create(url), Set.of(NotificationEvent.INCIDENT_REOPENED), secret, timeout, Preset.GENERIC);
    }

    private static NotificationProperties with(Webhook... webhooks) {
        return rateLimited(5, Duration.ofMinutes(5), webhooks);
    }

    private static NotificationProperties rateLimited(int limit, Duration window, Webhook... webhooks) {
        return new NotificationProperties(null, Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofHours(24),
                Duration.ofDays(7), Duration.ofSeconds(5), limit, window, List.of(webhooks));
    }

    /** As Spring binds it with nothing set: the shipped defaults. */
    private static NotificationProperties bound(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("dlqdesk.notifications", NotificationProperties.class);
    }

    @Test
    void unsetTheRateLimitSendsFiveNotificationsOfAnEventToAReceiverOneByOnePerFiveMinutes() {
        NotificationProperties shipped = bound(Map.of());
        assertThat(shipped.rateLimit()).isEqualTo(5);
        assertThat(shipped.rateWindow()).isEqualTo(Duration.ofMinutes(5));
        NotificationProperties set = bound(Map.of("dlqdesk.notifications.rate-limit", "40", "dlqdesk.notifications.rate-window", "1m"));
        assertThat(set.rateLimit()).isEqualTo(40);
        assertThat(set.rateWindow()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void theRateLimitIsAtLeastOneAndTheWindowPositive() {
        assertThatThrownBy(() -> rateLimited(0, Duration.ofMinutes(5))).hasMessageContaining("rate-limit");
        assertThat(rateLimited(1, Duration.ofMinutes(5)).rateLimit()).isEqualTo(1);
        assertThatThrownBy(() -> rateLimited(5, Duration.ZERO)).hasMessageContaining("positive");
        assertThat(rateLimited(5, Duration.ofSeconds(1)).rateWindow()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aWellFormedWebhookIsAllowed() {
        assertThat(with(webhook("chat-1", "https://hooks.example/x", "s", Duration.ofSeconds(10))).webhooks()).hasSize(1);
    }

    @Test
    void namesMustBeSimpleAndUnique() {
        assertThatThrownBy(() -> with(webhook("Chat One", "https://hooks.example/x", null, Duration.ofSeconds(10))))
                .hasMessageContaining("webhooks[0].name");
        assertThatThrownBy(() -> with(webhook("chat", "https://a.example", null, Duration.ofSeconds(10)),
                webhook("chat", "https://b.example", null, Duration.ofSeconds(10)))).hasMessageContaining("webhooks[1].name 'chat' is used");
    }

    @Test
    void theUrlMustBeAbsoluteHttp() {
        assertThatThrownBy(() -> with(webhook("a", "ftp://hooks.example/x", null, Duration.ofSeconds(10)))).hasMessageContaining("webhooks[0].url");
        assertThatThrownBy(() -> with(webhook("a", "/relative", null, Duration.ofSeconds(10)))).hasMessageContaining("webhooks[0].url");
        assertThat(with(webhook("a", "http://127.0.0.1:9000/hook", null, Duration.ofSeconds(10))).webhooks()).hasSize(1);
    }

    @Test
    void aBlankSecretIsRefusedAndNoSecretIsAllowed() {
        assertThatThrownBy(() -> with(webhook("a", "https://h.example", " ", Duration.ofSeconds(10)))).hasMessageContaining("secret is blank");
        assertThat(with(webhook("a", "https://h.example", null, Duration.ofSeconds(10))).webhooks().get(0).secret()).isNull();
    }

    @Test
    void theTimeoutIsOneSecondToFiveMinutes() {
        assertThatThrownBy(() -> with(webhook("a", "https://h.example", null, Duration.ofMillis(999)))).hasMessageContaining("timeout");
        assertThatThrownBy(() -> with(webhook("a", "https://h.example", null, Duration.ofMinutes(5).plusMillis(1)))).hasMessageContaining("timeout");
        assertThat(with(webhook("a", "https://h.example", null, Duration.ofMinutes(5))).webhooks()).hasSize(1);
    }

    @Test
    void theSecretAndTheUrlPathNeverShowInItsText() {
        String text = webhook("a", "https://hooks.slack.example/services/T0/B0/token-in-path", "very-secret", Duration.ofSeconds(10)).toString();
        assertThat(text).doesNotContain("very-secret").doesNotContain("token-in-path").contains("hooks.slack.example");
    }
}
