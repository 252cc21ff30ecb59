package io.dlqdesk.app;

import io.dlqdesk.retention.RetentionFlag;
import io.dlqdesk.retention.TopicRetention;
import io.dlqdesk.retention.TopicRetentionInspector;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention report over many topics against a real broker whose every answer is slow: one DescribeConfigs call for
 * all of them, within one deadline. (One call a topic took topics x delay: 40 topics at 1 s, 40 s.)
 */
@RealInfrastructure
class ViewerBoundsRetentionIT {

    private static final String NONCE = "vbr" + System.nanoTime();
    private static final int TOPICS = 40;
    private static final List<String> NAMES = IntStream.range(0, TOPICS).mapToObj(i -> NONCE + "-source-" + i).toList();
    private static final Duration WEEK = Duration.ofDays(7);
    private static final ScheduledExecutorService DELAYS = Executors.newSingleThreadScheduledExecutor();

    private static KafkaBroker broker;

    @BeforeAll
    static void createTopics(KafkaBroker kafka) throws Exception {
        broker = kafka;
        try (Admin admin = broker.admin()) {
            admin.createTopics(NAMES.stream().map(name -> new NewTopic(name, 1, (short) 1).configs(Map.of("retention.ms", "3600000"))).toList())
                    .all().get(60, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() {
        DELAYS.shutdownNow();
    }

    @Test
    void aReportOverFortyTopicsIsOneBrokerCallAndAnswersEveryTopic() {
        AtomicInteger calls = new AtomicInteger();
        TopicRetentionInspector inspector = new TopicRetentionInspector(() -> slowAdmin(calls, Duration.ZERO), Duration.ofSeconds(10));

        List<TopicRetention> report = inspector.inspect(NAMES, WEEK);

        assertThat(calls.get()).isEqualTo(1);
        // the allowed side: the batch answers as the topic-by-topic calls did
        assertThat(report).hasSize(TOPICS).allSatisfy(topic -> {
            assertThat(topic.configs().get("retention.ms")).isEqualTo(new TopicRetention.ConfigValue("3600000", "dynamic-topic"));
            assertThat(topic.flags()).containsExactly(RetentionFlag.RETENTION_SHORTER_THAN_REPLAY_WINDOW);
        });
    }

    /** A broker that takes 1 s for each answer: 40 topics asked one by one took 40 s; asked together, about 1 s. */
    @Test
    void onASlowBrokerTheReportTakesOneAnswersDelayNotOnePerTopic() {
        AtomicInteger calls = new AtomicInteger();
        TopicRetentionInspector inspector = new TopicRetentionInspector(() -> slowAdmin(calls, Duration.ofSeconds(1)), Duration.ofSeconds(10));

        long started = System.nanoTime();
        List<TopicRetention> report = inspector.inspect(NAMES, WEEK);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("far below 40 answers of 1 s").isLessThan(Duration.ofSeconds(15));
        assertThat(report).hasSize(TOPICS).allSatisfy(topic -> assertThat(topic.error()).isNull());
    }

    /** A broker that does not answer within the deadline: every topic says so, once the one deadline has passed. */
    @Test
    void aBrokerThatDoesNotAnswerCostsOneDeadlineAndEveryTopicIsUnreadable() {
        AtomicInteger calls = new AtomicInteger();
        TopicRetentionInspector inspector = new TopicRetentionInspector(() -> slowAdmin(calls, Duration.ofSeconds(60)), Duration.ofSeconds(2));

        long started = System.nanoTime();
        List<TopicRetention> report = inspector.inspect(NAMES, WEEK);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("one deadline of 2 s, not one per topic (80 s)").isLessThan(Duration.ofSeconds(15));
        assertThat(report).hasSize(TOPICS).allSatisfy(topic -> {
            assertThat(topic.flags()).containsExactly(RetentionFlag.UNREADABLE);
            assertThat(topic.error()).contains("no answer within");
        });
    }

    /** The real broker's admin client, counting DescribeConfigs calls and handing on each answer {@code delay} after it came. */
    private static Admin slowAdmin(AtomicInteger calls, Duration delay) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return new ForwardingAdmin(config) {
            @Override
            public DescribeConfigsResult describeConfigs(Collection<ConfigResource> resources, DescribeConfigsOptions options) {
                calls.incrementAndGet();
                Map<ConfigResource, KafkaFuture<Config>> delayed = new HashMap<>();
                super.describeConfigs(resources, options).values().forEach((resource, answer) -> {
                    KafkaFutureImpl<Config> later = new KafkaFutureImpl<>();
                    answer.whenComplete((config, failure) -> DELAYS.schedule(() -> {
                        if (failure != null) {
                            later.completeExceptionally(failure);
                        } else {
                            later.complete(config);
                        }
                    }, delay.toMillis(), TimeUnit.MILLISECONDS));
                    delayed.put(resource, later);
                });
                return new DescribeConfigsResult(delayed) {
                };
            }
        };
    }
}
