package io.dlqdesk.notifications.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Preset;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The three body shapes, read back as JSON: the fields each kind of receiver looks for. */
class WebhookBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INCIDENT = "inc-0123456789abcdef0123456789abcdef";

    private final Notification reopened = new Notification("incident-reopened:e-1", NotificationEvent.INCIDENT_REOPENED,
            Instant.parse("2026-11-30T12:00:00Z"), "Incident " + INCIDENT + " was RESOLVED and failed again <&>", INCIDENT, facts());

    private static Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("topic", "orders");
        facts.put("refailedOffset", 42L);
        return facts;
    }

    @Test
    void theGenericBodyCarriesTheIdTheEventTheIncidentItsLinkAndTheFacts() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example/"), "desk-prod").render(reopened, Preset.GENERIC));
        assertThat(body.path("id").asText()).isEqualTo("incident-reopened:e-1");
        assertThat(body.path("event").asText()).isEqualTo("incident-reopened");
        assertThat(body.path("occurredAt").asText()).isEqualTo("2026-11-30T12:00:00Z");
        assertThat(body.path("desk").asText()).isEqualTo("desk-prod");
        assertThat(body.path("incidentId").asText()).isEqualTo(INCIDENT);
        assertThat(body.path("consoleUrl").asText()).isEqualTo("https://desk.example/console/incidents/" + INCIDENT);
        assertThat(body.path("facts").path("refailedOffset").asLong()).isEqualTo(42);
    }

    @Test
    void withoutABaseUrlThereIsNoLink() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(null, "desk").render(reopened, Preset.GENERIC));
        assertThat(body.has("consoleUrl")).isFalse();
        assertThat(body.path("incidentId").asText()).isEqualTo(INCIDENT);
    }

    @Test
    void slackGetsTextAndMrkdwnBlocksWithItsControlCharactersEscapedAndTheLink() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example"), "desk").render(reopened, Preset.SLACK));
        assertThat(body.path("text").asText()).startsWith("DLQ incident reopened: ");
        String headline = body.path("blocks").get(0).path("text").path("text").asText();
        assertThat(headline).contains("&lt;&amp;&gt;").doesNotContain("<&>")
                .contains("<https://desk.example/console/incidents/" + INCIDENT + "|Open in the console>");
        assertThat(body.path("blocks").get(1).path("fields")).hasSize(2);
        assertThat(body.path("blocks").get(1).path("fields").get(0).path("text").asText()).isEqualTo("*topic*\norders");
    }

    @Test
    void teamsGetsAnAdaptiveCardWithTheFactsAndAnOpenUrlAction() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example"), "desk").render(reopened, Preset.TEAMS));
        assertThat(body.path("type").asText()).isEqualTo("message");
        JsonNode attachment = body.path("attachments").get(0);
        assertThat(attachment.path("contentType").asText()).isEqualTo("application/vnd.microsoft.card.adaptive");
        JsonNode card = attachment.path("content");
        assertThat(card.path("type").asText()).isEqualTo("AdaptiveCard");
        assertThat(card.path("body").get(2).path("facts").get(1).path("title").asText()).isEqualTo("refailedOffset");
        assertThat(card.path("body").get(2).path("facts").get(1).path("value").asText()).isEqualTo("42");
        assertThat(card.path("actions").get(0).path("url").asText()).isEqualTo("https://desk.example/console/incidents/" + INCIDENT);
    }
}
