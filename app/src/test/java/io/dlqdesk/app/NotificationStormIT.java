package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.dlqdesk.app.WebhookNotificationsIT.Receiver;
import io.dlqdesk.app.WebhookNotificationsIT.Request;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A storm of new exception groups against the real service, broker and database: each receiver gets at most
 * {@code rate-limit} single messages per {@code rate-window} and then one message that sums up the rest, with their
 * count; nothing is lost. Two receivers of the same notifications: {@code hook} (generic JSON, counted exactly) and
 * {@code chat} (Slack). The tests run in order because both use the same receivers' windows: the first stays below the
 * limit and waits for its window to end, so the storm starts a window of its own.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NotificationStormIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int LIMIT = 5;
    // long enough for 40 records to be ingested within one window on a slow machine (here the 40 take well under a second; the storm
    // test still passes if they outlast it into a second window), short enough for a test: both tests wait for a window's end
    private static final Duration WINDOW = Duration.ofSeconds(15);
    private static final String NONCE = "s" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "orders-service";

    private static final Receiver hook = new Receiver("hook");
    private static final Receiver chat = new Receiver("chat");
    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, ORDERS, 3, Map.of());
        IngestLedger.createTopic(broker, DLQ, 3, Map.of());
        hook.start();
        chat.start();
        Map<String, Object> settings = new HashMap<>();
        settings.put("dlqdesk.notifications.poll-interval", "200ms");
        settings.put("dlqdesk.notifications.rate-limit", LIMIT);
        settings.put("dlqdesk.notifications.rate-window", WINDOW.toSeconds() + "s");
        List<Receiver> receivers = List.of(hook, chat);
        for (int i = 0; i < receivers.size(); i++) {
            String prefix = "dlqdesk.notifications.webhooks[" + i + "].";
            settings.put(prefix + "name", receivers.get(i).name);
            settings.put(prefix + "url", "http://127.0.0.1:" + receivers.get(i).port + "/hooks/" + receivers.get(i).name);
            settings.put(prefix + "events", "new-exception-group");
            settings.put(prefix + "timeout", "3s");
        }
        settings.put("dlqdesk.notifications.webhooks[1].preset", "slack");
        app = Replays.service(database, broker, NONCE, settings);
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
        hook.stop();
        chat.stop();
    }

    @Test
    @Order(1)
    void belowTheLimitEveryNewGroupIsSentOnItsOwnAndNothingIsSummedUp() throws Exception {
        String prefix = "com.example." + NONCE + ".calm";
        for (int i = 0; i < LIMIT; i++) {
            send(i % 3, 100 + i, prefix + i + "Exception");
        }
        await().atMost(WAIT).until(() -> singles(hook, prefix).size() == LIMIT && chat.received(mentions(prefix)).size() == LIMIT);
        // each its own message naming its own group
        assertThat(singles(hook, prefix)).extracting(request -> request.json().path("facts").path("exceptionClass").asText()).doesNotHaveDuplicates()
                .allSatisfy(exceptionClass -> assertThat(exceptionClass).startsWith(prefix));
        // and past the window's end no summary follows: nothing was held back
        await().during(WINDOW.plusSeconds(5)).atMost(WINDOW.plusSeconds(30))
                .until(() -> summaries(hook, prefix).isEmpty() && chat.received(mentions(prefix)).size() == LIMIT);
        assertThat(coalesced("hook")).isZero();
    }

    @Test
    @Order(2)
    void aStormOfFortyNewGroupsSendsTheLimitOneByOneAndASummaryCountingTheRest() throws Exception {
        String prefix = "com.example." + NONCE + ".storm";
        int storm = 40;
        double hookBefore = coalesced("hook");
        double chatBefore = coalesced("chat");
        for (int i = 0; i < storm; i++) {
            send(i % 3, 1000 + i, prefix + i + "Exception");
        }
        // every notification reaches each receiver, one by one or counted in a summary: all in one window, or (on a slow
        // day, when the last ones are processed after the window's end) some in the next
        await().atMost(WAIT.plus(WINDOW)).until(() -> singles(hook, prefix).size() + held(summaries(hook, prefix)) == storm);
        List<Request> singles = singles(hook, prefix);
        List<Request> summaries = summaries(hook, prefix);
        assertThat(summaries).as("a summary at the window's end; a second only if the storm outlasted the window").hasSizeBetween(1, 2);
        assertThat(singles.size()).as("one by one up to the limit in each window").isBetween(LIMIT, LIMIT * (summaries.size() + 1));
        for (Request summary : summaries) {
            int held = summary.json().path("facts").path("coalesced").asInt();
            assertThat(held).isPositive();
            assertThat(summary.json().path("summary").asText()).contains(Integer.toString(held)).contains("new exception groups");
            assertThat(summary.json().path("event").asText()).isEqualTo("new-exception-group");
            assertThat(summary.json().path("id").asText()).isNotIn(singles.stream().map(request -> request.json().path("id").asText()).toList());
        }
        int held = held(summaries);
        assertThat(singles.size() + summaries.size()).as("40 notifications, a handful of messages").isLessThanOrEqualTo(2 * (LIMIT + 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> coalesced("hook") - hookBefore == held);

        // the chat channel alike: single messages up to the limit, then a summary naming the suppressed count
        await().atMost(WAIT.plus(WINDOW)).until(() -> chatSingles(prefix).size() + chatHeld(prefix) == storm);
        assertThat(chatSingles(prefix).size() + chatSummaries(prefix).size()).isLessThanOrEqualTo(2 * (LIMIT + 1));
        assertThat(chatSummaries(prefix)).isNotEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> coalesced("chat") - chatBefore == chatHeld(prefix));
    }

    private static final java.util.regex.Pattern MORE = java.util.regex.Pattern.compile("(\\d+) more new exception groups");

    private static int held(List<Request> summaries) {
        return summaries.stream().mapToInt(summary -> summary.json().path("facts").path("coalesced").asInt()).sum();
    }

    private static List<Request> chatSummaries(String prefix) {
        return chat.received(mentions(prefix).and(request -> MORE.matcher(request.json().path("text").asText()).find()));
    }

    private static List<Request> chatSingles(String prefix) {
        return chat.received(mentions(prefix).and(request -> !MORE.matcher(request.json().path("text").asText()).find()));
    }

    private static int chatHeld(String prefix) {
        return chatSummaries(prefix).stream().mapToInt(request -> {
            java.util.regex.Matcher more = MORE.matcher(request.json().path("text").asText());
            return more.find() ? Integer.parseInt(more.group(1)) : 0;
        }).sum();
    }

    private static List<Request> singles(Receiver receiver, String prefix) {
        return receiver.received(request -> request.json().path("facts").path("exceptionClass").asText().startsWith(prefix));
    }

    /** Summaries name their first notifications, and those name their group's class. */
    private static List<Request> summaries(Receiver receiver, String prefix) {
        return receiver.received(request -> request.json().path("facts").has("coalesced") && request.json().toString().contains(prefix));
    }

    private static Predicate<Request> mentions(String prefix) {
        return request -> new String(request.body(), java.nio.charset.StandardCharsets.UTF_8).contains(prefix);
    }

    private static double coalesced(String receiver) {
        return app.getBean(MeterRegistry.class).find("dlq.notifications.coalesced").tag("receiver", receiver).counters().stream()
                .mapToDouble(counter -> counter.count()).sum();
    }

    private static void send(int partition, long offset, String exceptionClass) throws Exception {
        producer.send(DltRecord.failure(ORDERS, partition, offset, GROUP)
                .without("kafka_dlt-exception-cause-fqcn").header("kafka_dlt-exception-cause-fqcn", exceptionClass)
                .without("kafka_dlt-exception-message").header("kafka_dlt-exception-message", "boom")
                .to(DLQ, partition)).get(30, TimeUnit.SECONDS);
    }
}
