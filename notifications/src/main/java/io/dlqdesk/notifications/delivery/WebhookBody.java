package io.dlqdesk.notifications.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationProperties.Preset;

import java.net.URI;
import java.util.Map;

/**
 * The JSON a receiver gets for a notification, by its preset: the desk's own document ({@code GENERIC}), a Slack
 * incoming-webhook message ({@code text} plus blocks), or a Teams workflow webhook message (an Adaptive Card). Every
 * preset carries the summary, the facts and, when a console base URL is configured and the notification is about an
 * incident, the link to it.
 */
public final class WebhookBody {

    /** Slack allows at most 10 fields in a section. */
    private static final int SLACK_MAX_FIELDS = 10;
    private static final int SLACK_MAX_TEXT = 2000;

    private final ObjectMapper json = new ObjectMapper();
    private final URI consoleBaseUrl;
    private final String desk;

    public WebhookBody(URI consoleBaseUrl, String desk) {
        this.consoleBaseUrl = consoleBaseUrl;
        this.desk = desk;
    }

    public String render(Notification notification, Preset preset) {
        ObjectNode body = switch (preset) {
            case GENERIC -> generic(notification);
            case SLACK -> slack(notification);
            case TEAMS -> teams(notification);
        };
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a notification body could not be written: " + e.getMessage(), e);
        }
    }

    /** {@code <base>/console/incidents/<id>}, or null without a base URL or an incident. */
    public String consoleLink(Notification notification) {
        if (consoleBaseUrl == null || notification.incidentId() == null) {
            return null;
        }
        String base = consoleBaseUrl.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/console/incidents/" + notification.incidentId();
    }

    private ObjectNode generic(Notification notification) {
        ObjectNode body = json.createObjectNode();
        body.put("id", notification.id());
        body.put("event", notification.event().wireName());
        body.put("occurredAt", notification.occurredAt().toString());
        body.put("desk", desk);
        body.put("summary", notification.summary());
        if (notification.incidentId() != null) {
            body.put("incidentId", notification.incidentId());
        }
        String link = consoleLink(notification);
        if (link != null) {
            body.put("consoleUrl", link);
        }
        body.set("facts", json.valueToTree(notification.facts()));
        return body;
    }

    private ObjectNode slack(Notification notification) {
        String link = consoleLink(notification);
        String title = "*" + slackEscape(notification.event().title()) + "* (" + slackEscape(desk) + ")\n" + slackEscape(notification.summary());
        ObjectNode body = json.createObjectNode();
        body.put("text", notification.event().title() + ": " + notification.summary() + (link == null ? "" : " " + link));
        ArrayNode blocks = body.putArray("blocks");
        ObjectNode headline = blocks.addObject().put("type", "section");
        headline.putObject("text").put("type", "mrkdwn").put("text", cut(title + (link == null ? "" : "\n<" + link + "|Open in the console>")));
        ArrayNode fields = json.createArrayNode();
        for (Map.Entry<String, Object> fact : notification.facts().entrySet()) {
            if (fields.size() == SLACK_MAX_FIELDS) {
                break;
            }
            fields.addObject().put("type", "mrkdwn").put("text", cut("*" + slackEscape(fact.getKey()) + "*\n" + slackEscape(String.valueOf(fact.getValue()))));
        }
        if (!fields.isEmpty()) {
            blocks.addObject().put("type", "section").set("fields", fields);
        }
        return body;
    }

    private ObjectNode teams(Notification notification) {
        String link = consoleLink(notification);
        ObjectNode card = json.createObjectNode();
        card.put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json").put("type", "AdaptiveCard").put("version", "1.4");
        ArrayNode items = card.putArray("body");
        items.addObject().put("type", "TextBlock").put("size", "Medium").put("weight", "Bolder").put("wrap", true)
                .put("text", notification.event().title() + " (" + desk + ")");
        items.addObject().put("type", "TextBlock").put("wrap", true).put("text", notification.summary());
        ArrayNode facts = items.addObject().put("type", "FactSet").putArray("facts");
        notification.facts().forEach((name, value) -> facts.addObject().put("title", name).put("value", String.valueOf(value)));
        if (link != null) {
            card.putArray("actions").addObject().put("type", "Action.OpenUrl").put("title", "Open in the console").put("url", link);
        }
        ObjectNode body = json.createObjectNode();
        body.put("type", "message");
        ObjectNode attachment = body.putArray("attachments").addObject();
        attachment.put("contentType", "application/vnd.microsoft.card.adaptive");
        attachment.putNull("contentUrl");
        attachment.set("content", card);
        return body;
    }

    /** Slack's mrkdwn treats these three as control characters. */
    private static String slackEscape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String cut(String text) {
        return text.length() <= SLACK_MAX_TEXT ? text : text.substring(0, SLACK_MAX_TEXT - 1) + "…";
    }
}
