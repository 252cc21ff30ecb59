package io.dlqdesk.notifications.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationProperties.Preset;

import java.net.URI;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The JSON a receiver gets for a notification, by its preset: the desk's own document ({@code GENERIC}), a Slack
 * incoming-webhook message ({@code text} plus blocks), or a Teams workflow webhook message (an Adaptive Card). Every
 * preset carries the summary, the facts and, when a console base URL is configured and the notification is about an
 * incident, the link to it. In the chat presets every value from outside is made inert first ({@link ChatText}); the
 * generic document carries values as they are, JSON-escaped, for programs to read.
 */
public final class WebhookBody {

    /** Slack allows at most 10 fields in a section, 3000 characters in its text and 2000 in a field's. */
    private static final int SLACK_MAX_FIELDS = 10;
    private static final int SLACK_MAX_SUMMARY = 2000;
    private static final int SLACK_MAX_FACT = 500;
    /** Teams takes a message of up to 28 KB: these keep a card well below it, whatever the record says. */
    private static final int TEAMS_MAX_FACTS = 10;
    private static final int TEAMS_MAX_SUMMARY = 2000;
    private static final int TEAMS_MAX_FACT = 500;
    /** What an incident id may hold in a link: it is put inside Slack's {@code <url|text>}. */
    private static final Pattern LINKABLE_ID = Pattern.compile("[A-Za-z0-9-]{1,100}");

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
        if (consoleBaseUrl == null || notification.incidentId() == null || !LINKABLE_ID.matcher(notification.incidentId()).matches()) {
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
        String title = ChatText.slackEscape(notification.event().title());
        String summary = ChatText.slackCode(notification.summary(), SLACK_MAX_SUMMARY);
        ObjectNode body = json.createObjectNode();
        // the fallback shown in notifications: Slack reads it as mrkdwn too
        body.put("text", title + ": " + summary + (link == null ? "" : " " + link));
        ArrayNode blocks = body.putArray("blocks");
        ObjectNode headline = blocks.addObject().put("type", "section");
        headline.putObject("text").put("type", "mrkdwn").put("text", "*" + title + "* (" + ChatText.slackEscape(desk) + ")\n" + summary
                + (link == null ? "" : "\n<" + link + "|Open in the console>"));
        ArrayNode fields = json.createArrayNode();
        for (Map.Entry<String, Object> fact : notification.facts().entrySet()) {
            if (fields.size() == SLACK_MAX_FIELDS) {
                break;
            }
            fields.addObject().put("type", "mrkdwn").put("text", "*" + ChatText.slackEscape(fact.getKey()) + "*\n"
                    + ChatText.slackCode(text(fact.getValue()), SLACK_MAX_FACT));
        }
        if (!fields.isEmpty()) {
            blocks.addObject().put("type", "section").set("fields", fields);
        }
        return body;
    }

    /**
     * Teams renders markdown in a {@code TextBlock} and in facts, and no markdown in a {@code RichTextBlock}'s
     * {@code TextRun}s: our own title is a TextBlock, everything else (the desk's name, the summary, each fact) is TextRuns.
     */
    private ObjectNode teams(Notification notification) {
        String link = consoleLink(notification);
        ObjectNode card = json.createObjectNode();
        card.put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json").put("type", "AdaptiveCard").put("version", "1.4");
        ArrayNode items = card.putArray("body");
        items.addObject().put("type", "TextBlock").put("size", "Medium").put("weight", "Bolder").put("wrap", true)
                .put("text", notification.event().title());
        richText(items).addObject().put("type", "TextRun").put("isSubtle", true).put("text", ChatText.teamsLiteral(desk, TEAMS_MAX_FACT));
        richText(items).addObject().put("type", "TextRun").put("text", ChatText.teamsLiteral(notification.summary(), TEAMS_MAX_SUMMARY));
        int shown = 0;
        for (Map.Entry<String, Object> fact : notification.facts().entrySet()) {
            if (shown++ == TEAMS_MAX_FACTS) {
                break;
            }
            ArrayNode runs = richText(items);
            runs.addObject().put("type", "TextRun").put("weight", "Bolder").put("text", ChatText.teamsLiteral(fact.getKey(), TEAMS_MAX_FACT));
            runs.addObject().put("type", "TextRun").put("text", ": " + ChatText.teamsLiteral(text(fact.getValue()), TEAMS_MAX_FACT));
        }
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

    private static ArrayNode richText(ArrayNode items) {
        return items.addObject().put("type", "RichTextBlock").putArray("inlines");
    }

    /** A fact's value as chat text: a list (a summary's first notifications) one item after the other. */
    private static String text(Object value) {
        if (value instanceof Collection<?> items) {
            return items.stream().map(String::valueOf).collect(Collectors.joining(" · "));
        }
        return String.valueOf(value);
    }
}
