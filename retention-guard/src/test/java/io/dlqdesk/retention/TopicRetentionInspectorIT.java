package io.dlqdesk.retention;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Effective topic configuration and its sources, read from a real broker. */
@RealInfrastructure
class TopicRetentionInspectorIT {

    private static final Duration WEEK = Duration.ofDays(7);
    private static final String NONCE = "r" + System.nanoTime();
    private static final String PLAIN = NONCE + "-plain";
    private static final String SHORT = NONCE + "-short";
    private static final String APPEND_TIME = NONCE + "-append-time";
    private static final String COMPACTED = NONCE + "-compacted";
    private static final String SIZE_ONLY = NONCE + "-size-only";
    private static final String SIZE_WITH_SMALL_SEGMENTS = NONCE + "-size-small-segments";

    private static TopicRetentionInspector inspector;

    @BeforeAll
    static void createTopics(KafkaBroker broker) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(
                    new NewTopic(PLAIN, 1, (short) 1),
                    new NewTopic(SHORT, 1, (short) 1).configs(Map.of("retention.ms", "3600000")),
                    new NewTopic(APPEND_TIME, 1, (short) 1).configs(Map.of("message.timestamp.type", "LogAppendTime")),
                    new NewTopic(COMPACTED, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(SIZE_ONLY, 1, (short) 1).configs(Map.of("retention.bytes", "1048576")),
                    new NewTopic(SIZE_WITH_SMALL_SEGMENTS, 1, (short) 1).configs(Map.of("retention.bytes", "10485760", "segment.bytes", "1048576"))
            )).all().get(30, TimeUnit.SECONDS);
        }
        inspector = new TopicRetentionInspector(broker::admin,
                Duration.ofSeconds(10));
    }

    @Test
    void aTopicOnBrokerDefaultsReportsTheDefaultsAndTheirSourceAndIsNotFlagged() {
        TopicRetention plain = only(PLAIN);
        assertThat(plain.configs().get("retention.ms")).isEqualTo(new TopicRetention.ConfigValue("604800000", "default"));
        assertThat(plain.configs().get("cleanup.policy")).isEqualTo(new TopicRetention.ConfigValue("delete", "default"));
        assertThat(plain.configs()).containsKeys("retention.bytes", "segment.bytes", "segment.ms", "message.timestamp.type");
        assertThat(plain.flags()).isEmpty();
    }

    @Test
    void aDynamicOverrideIsReportedWithItsSourceAndRetentionShorterThanTheWindowIsFlagged() {
        TopicRetention shortRetention = only(SHORT);
        assertThat(shortRetention.configs().get("retention.ms")).isEqualTo(new TopicRetention.ConfigValue("3600000", "dynamic-topic"));
        assertThat(shortRetention.flags()).containsExactly(RetentionFlag.RETENTION_SHORTER_THAN_REPLAY_WINDOW);
        // the same hour is enough for a window of an hour
        assertThat(inspector.inspect(List.of(SHORT), Duration.ofHours(1)).get(0).flags()).isEmpty();
    }

    @Test
    void logAppendTimeAndCompactionAreFlagged() {
        assertThat(only(APPEND_TIME).flags()).containsExactly(RetentionFlag.LOG_APPEND_TIME);
        assertThat(only(COMPACTED).flags()).containsExactly(RetentionFlag.COMPACTED);
    }

    @Test
    void sizeRetentionIsFlaggedOnlyWithoutSegmentsSmallerThanIt() {
        assertThat(only(SIZE_ONLY).flags()).containsExactly(RetentionFlag.SIZE_RETENTION_INEFFECTIVE);
        assertThat(only(SIZE_WITH_SMALL_SEGMENTS).flags()).isEmpty();
    }

    @Test
    void aTopicThatDoesNotExistIsReportedAsUnreadable() {
        TopicRetention missing = only(NONCE + "-missing");
        assertThat(missing.flags()).containsExactly(RetentionFlag.UNREADABLE);
        assertThat(missing.error()).isNotBlank();
    }

    private static TopicRetention only(String topic) {
        return inspector.inspect(List.of(topic), WEEK).get(0);
    }
}
