package io.dlqdesk.notifications.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Preset;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three body shapes, read back as JSON: the fields each kind of receiver looks for, and what a hostile DLQ record
 * (its topic, group and exception text are anyone's) can make of a chat message: no mention, no link, no formatting,
 * no forged line, no unbounded size. The chat assertions read the message as Slack or Teams would, not as it is written.
 */
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
        assertThat(outsideCode(body.path("blocks").get(1).path("fields").get(0).path("text").asText())).contains("topic");
        assertThat(codeSpans(body.path("blocks").get(1).path("fields").get(0).path("text").asText())).containsExactly("orders");
    }

    @Test
    void teamsGetsAnAdaptiveCardWithTheFactsAndAnOpenUrlAction() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example"), "desk").render(reopened, Preset.TEAMS));
        assertThat(body.path("type").asText()).isEqualTo("message");
        JsonNode attachment = body.path("attachments").get(0);
        assertThat(attachment.path("contentType").asText()).isEqualTo("application/vnd.microsoft.card.adaptive");
        JsonNode card = attachment.path("content");
        assertThat(card.path("type").asText()).isEqualTo("AdaptiveCard");
        assertThat(literalText(card)).contains("refailedOffset").contains("42").contains("orders");
        assertThat(card.path("actions").get(0).path("url").asText()).isEqualTo("https://desk.example/console/incidents/" + INCIDENT);
    }

    /** What a producer of a DLQ record controls: every value below reaches the message. */
    private static final List<String> HOSTILE = List.of(
            "<!channel> <!here> <@U0123ABC> <#C0123ABC> <!subteam^S0123>",
            "<https://evil.example/a|click here>",
            "[click](https://evil.example/b) ![img](https://evil.example/c.png)",
            "*bold* _italic_ ~strike~ `code` ```block``` **teams-bold**",
            "@everyone @channel @here",
            "line\n> quoted\r\n\u0007bell\u0000nul\u202Eevil-bidi\u200Bzero-width",
            "<b>html</b><script>alert(1)</script><at>Everyone</at>&lt;!channel&gt;",
            "x".repeat(100_000) + "<!channel>");
    private static final Pattern CONSOLE_LINK = Pattern.compile("<https://desk\\.example/console/incidents/" + INCIDENT + "\\|[^<>]*>");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\n]*)`");
    private static final Pattern SLACK_TOKEN = Pattern.compile("<[^>]*>");

    private static Notification hostile() {
        Map<String, Object> facts = new LinkedHashMap<>();
        for (int i = 0; i < HOSTILE.size(); i++) {
            facts.put("fact" + i, HOSTILE.get(i));
        }
        facts.put("topic", "orders_v2.eu-1"); // an ordinary name with characters mrkdwn would format: shown as it is
        return new Notification("new-exception-group:g-1", NotificationEvent.NEW_EXCEPTION_GROUP, Instant.parse("2026-11-30T12:00:00Z"),
                "A new kind of failure: " + String.join(" ", HOSTILE), INCIDENT, facts);
    }

    @Test
    void slackShowsHostileValuesAsCodeWithNoMentionLinkFormattingOrForgedLine() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example"), "desk").render(hostile(), Preset.SLACK));
        List<String> texts = new ArrayList<>();
        texts.add(body.path("text").asText());
        body.path("blocks").forEach(block -> {
            if (block.has("text")) {
                texts.add(block.path("text").path("text").asText());
            }
            block.path("fields").forEach(field -> texts.add(field.path("text").asText()));
        });
        assertThat(texts).hasSizeGreaterThan(HOSTILE.size());
        for (String text : texts) {
            // Slack's control sequences: only our own link, never one from the record (mentions and links need '<')
            Matcher tokens = SLACK_TOKEN.matcher(text);
            while (tokens.find()) {
                assertThat(tokens.group()).as("a <…> sequence in " + abbreviated(text)).matches(CONSOLE_LINK);
            }
            assertThat(CONSOLE_LINK.matcher(text).replaceAll("")).doesNotContain("<").doesNotContain(">");
            // outside code spans (where Slack formats, links and mentions) nothing of the record's text is left
            String outside = outsideCode(text);
            assertThat(outside).as("outside code in " + abbreviated(text)).doesNotContain("`")
                    .doesNotContain("evil").doesNotContain("everyone").doesNotContain("channel").doesNotContain("bold").doesNotContain("click")
                    .doesNotContain("quoted").doesNotContain("html").doesNotContain("xxxx");
            assertThat(text.chars().filter(c -> c != '\n' && (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)))
                    .as("control and format characters").isEmpty();
            assertThat(codeSpans(text)).noneMatch(code -> code.contains("\n"));
            assertThat(text.length()).isLessThanOrEqualTo(3000); // Slack's bound of a section's text (fields: 2000)
        }
        body.path("blocks").forEach(block -> block.path("fields").forEach(field -> assertThat(field.path("text").asText().length())
                .isLessThanOrEqualTo(2000)));
        assertThat(body.toString().getBytes(StandardCharsets.UTF_8).length).isLessThan(40_000);
    }

    @Test
    void slackStillShowsOrdinaryValuesAsTheyAreAndKeepsTheConsoleLinkLive() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(URI.create("https://desk.example"), "desk").render(hostile(), Preset.SLACK));
        String headline = body.path("blocks").get(0).path("text").path("text").asText();
        assertThat(CONSOLE_LINK.matcher(headline).find()).as("the console link, live").isTrue();
        List<String> fieldCode = new ArrayList<>();
        body.path("blocks").get(1).path("fields").forEach(field -> fieldCode.addAll(codeSpans(field.path("text").asText())));
        assertThat(fieldCode).contains("orders_v2.eu-1");
        // a hostile value is there to read (escaped for Slack, which shows &lt; as <), not dropped
        assertThat(String.join(" ", fieldCode)).contains("&lt;!channel&gt;").contains("*bold*").contains("[click](https");
    }

    @Test
    void teamsPutsHostileValuesOnlyInLiteralTextRunsWithNoMentionLinkOrForgedLine() throws Exception {
        String rendered = new WebhookBody(URI.create("https://desk.example"), "desk").render(hostile(), Preset.TEAMS);
        JsonNode body = JSON.readTree(rendered);
        JsonNode card = body.path("attachments").get(0).path("content");
        assertThat(card.has("msteams")).as("no mention entities").isFalse();
        // Teams formats markdown in TextBlock text and in facts: the record's text never reaches them
        List<String> markdown = new ArrayList<>();
        collect(card, markdown, List.of("TextBlock"), "text");
        collectFacts(card, markdown);
        assertThat(markdown).isNotEmpty().allSatisfy(text -> assertThat(text)
                .doesNotContain("evil").doesNotContain("everyone").doesNotContain("bold").doesNotContain("click").doesNotContain("xxxx"));
        // and where it is shown, as TextRuns (no markdown), a bare URL is no link either, nor a line break a new line
        List<String> literal = new ArrayList<>();
        collect(card, literal, List.of("TextRun"), "text");
        assertThat(String.join(" ", literal)).contains("[click]").contains("*bold*").contains("@everyone").contains("orders_v2.eu-1");
        assertThat(literal).allSatisfy(text -> {
            assertThat(text).doesNotContain("://").doesNotContain("<at>");
            assertThat(text.chars().filter(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)).isEmpty();
        });
        assertThat(card.path("actions").get(0).path("url").asText()).isEqualTo("https://desk.example/console/incidents/" + INCIDENT);
        assertThat(rendered.getBytes(StandardCharsets.UTF_8).length).as("Teams takes 28 KB").isLessThan(28_000);
    }

    @Test
    void theGenericBodyKeepsEveryValueAsItWasForProgramsToRead() throws Exception {
        JsonNode body = JSON.readTree(new WebhookBody(null, "desk").render(hostile(), Preset.GENERIC));
        for (int i = 0; i < HOSTILE.size(); i++) {
            assertThat(body.path("facts").path("fact" + i).asText()).isEqualTo(HOSTILE.get(i));
        }
    }

    /** The text of the inline code spans, in order. */
    private static List<String> codeSpans(String mrkdwn) {
        List<String> spans = new ArrayList<>();
        Matcher code = CODE_SPAN.matcher(mrkdwn);
        while (code.find()) {
            spans.add(code.group(1));
        }
        return spans;
    }

    private static String outsideCode(String mrkdwn) {
        return CODE_SPAN.matcher(mrkdwn).replaceAll("");
    }

    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    /** Every {@code field} of the elements of these types, anywhere in the card. */
    private static void collect(JsonNode node, List<String> into, List<String> types, String field) {
        if (node.isObject() && types.contains(node.path("type").asText()) && node.has(field)) {
            into.add(node.path(field).asText());
        }
        node.forEach(child -> collect(child, into, types, field));
    }

    private static void collectFacts(JsonNode node, List<String> into) {
        if (node.isObject() && "FactSet".equals(node.path("type").asText())) {
            node.path("facts").forEach(fact -> {
                into.add(fact.path("title").asText());
                into.add(fact.path("value").asText());
            });
        }
        node.forEach(child -> collectFacts(child, into));
    }

    /** What Teams shows without formatting it: the card's TextRuns. */
    private static String literalText(JsonNode card) {
        List<String> literal = new ArrayList<>();
        collect(card, literal, List.of("TextRun"), "text");
        return String.join(" ", literal);
    }
}
