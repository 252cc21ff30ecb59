package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.ingest.classify.Classification.Failure;
import io.dlqdesk.ingest.classify.Classification.Malformed;
import io.dlqdesk.ingest.classify.Classification.NotOurs;
import io.dlqdesk.ingest.classify.Classification.RetryFailure;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import static io.dlqdesk.ingest.classify.DlqRecordBuilder.*;
import static io.dlqdesk.record.DltHeaders.ORIGINAL_CONSUMER_GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The three writers' DLQ records, read as their dialects; records shaped as docs/dlq-dialects.md lists each writer's headers. */
class DlqDialectsTest {

    private static final String APPLICATION_ID = "orders-enricher";

    private static Classification classify(ClassifierSettings settings, DlqRecordBuilder record) {
        return new DlqRecordClassifier(settings).classify(record.build());
    }

    private static Classification classify(DlqRecordBuilder record) {
        return classify(ClassifierSettings.defaults(), record);
    }

    private static ClassifierSettings topic(DialectSetting dialect, String group) {
        return new ClassifierSettings(null, null, null, Map.of(DLQ_TOPIC, TopicDialect.of(dialect, group)));
    }

    private static FailedRecord failure(Classification classification) {
        assertThat(classification).isInstanceOf(Failure.class);
        return ((Failure) classification).failure();
    }

    @Nested
    class KafkaConnect {

        @Test
        void aSinkConnectorsRecordIsAFailureOfItsConnectGroupAtTheSourceLocation() {
            FailedRecord failure = failure(classify(connect()));

            assertThat(failure.dialect()).isEqualTo(DlqDialect.CONNECT);
            assertThat(failure.failureKey()).isEqualTo(new FailureKey(TOPIC, PARTITION, OFFSET, "connect-" + CONNECTOR));
            assertThat(failure.originalLocationKnown()).isTrue();
            assertThat(failure.eventId().value()).isEqualTo(EVENT_ID);
            assertThat(failure.key().bytes()).isEqualTo(KEY);
        }

        @Test
        void aConvertersFailureIsShownAsTheExceptionConnectsWrapperHolds() {
            assertThat(failure(classify(connect())).exception()).as("the first cause under DataException, with its own message")
                    .isEqualTo(new ExceptionSummary(CAUSE_FQCN, MESSAGE));
        }

        @Test
        void aTasksOwnExceptionIsShownAsItIsNotItsCause() {
            ExceptionSummary exception = failure(classify(connect()
                    .set("__connect.errors.exception.class.name", "java.lang.IllegalStateException")
                    .set("__connect.errors.exception.message", "payment service rejected order-42")
                    .set("__connect.errors.exception.stacktrace", "java.lang.IllegalStateException: payment service rejected order-42\n"
                            + "\tat com.acme.Sink.put(Sink.java:1)\nCaused by: java.net.ConnectException: downstream refused\n"))).exception();

            assertThat(exception).isEqualTo(new ExceptionSummary("java.lang.IllegalStateException", "payment service rejected order-42"));
        }

        @Test
        void suppressedExceptionsCircularCausesAndCausesInMessagesAreNotTheCause() {
            String trace = CONNECT_WRAPPER + ": failed; Caused by: com.acme.InMessage: not a line of its own\n"
                    + "\tat x.Y.z(Y.java:1)\n"
                    + "\tSuppressed: java.io.IOException: close failed\n"
                    + "\t\tCaused by: com.acme.Suppressed: indented\n"
                    + "Caused by: [CIRCULAR REFERENCE: java.lang.Exception: loop]\n";

            assertThat(failure(classify(connect().set("__connect.errors.exception.stacktrace", trace))).exception())
                    .as("no cause line names a class: the wrapper itself, with the header's message")
                    .isEqualTo(new ExceptionSummary(CONNECT_WRAPPER, MESSAGE));
        }

        @Test
        void theOriginalTimestampIsTheDlqRecordsCreateTimeItsTypeStatedAsNotWritten() {
            OriginalTimestamp timestamp = failure(classify(connect())).originalTimestamp();

            assertThat(timestamp.instant()).isEqualTo(Instant.ofEpochMilli(TIMESTAMP));
            assertThat(timestamp.type()).isEqualTo(TimestampType.UNKNOWN);
            assertThat(timestamp.rawType()).isEqualTo(DlqRecordClassifier.NO_TYPE_HEADER);
        }

        @Test
        void aDlqTopicStampingLogAppendTimeLeavesNoOriginalTimestamp() {
            assertThat(failure(classify(connect().timestamp(TIMESTAMP, org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME)))
                    .originalTimestamp()).as("the broker's time is not the source's: no deadline, replay refused").isNull();
        }

        @Test
        void aGroupSetForTheTopicWinsOverTheConnectorNamesDefault() {
            assertThat(failure(classify(topic(DialectSetting.CONNECT, "orders-sink-override"), connect())).failureKey().consumerGroup())
                    .isEqualTo("orders-sink-override");
        }

        @Test
        void withoutAConnectorNameAndNoGroupSetTheRecordIsQuarantined() {
            assertThat(classify(connect().without("__connect.errors.connector.name")))
                    .isEqualTo(new Malformed("__connect.errors.connector.name: missing"));
        }

        @Test
        void aHostileConnectorNameIsQuarantinedNotCut() {
            assertThat(classify(connect().set("__connect.errors.connector.name", "sink\nINFO forged")))
                    .isEqualTo(new Malformed("__connect.errors.connector.name: control character U+000A at index 4"));
            assertThat(classify(connect().set("__connect.errors.connector.name", "c".repeat(248))))
                    .isEqualTo(new Malformed("__connect.errors.connector.name: 248 characters, longer than 247"));
            assertThat(failure(classify(connect().set("__connect.errors.connector.name", "c".repeat(247)))).failureKey().consumerGroup())
                    .as("connect- and 247 characters: a group of 255, the longest kept").hasSize(255);
        }

        @ParameterizedTest
        @ValueSource(strings = {"0x2a", "٤٢", "42 ", "+42", "", "99999999999999999999", "4\u00002"})
        void anOffsetThatIsNotPlainDecimalLeavesTheLocationUnknown(String offset) {
            FailedRecord failure = failure(classify(connect().set("__connect.errors.offset", offset)));

            assertThat(failure.originalLocationKnown()).isFalse();
            assertThat(failure.locationUnknownReason()).startsWith("__connect.errors.offset: ");
            assertThat(failure.failureKey().consumerGroup()).as("still its group's incident").isEqualTo("connect-" + CONNECTOR);
        }

        @Test
        void theLargestOffsetIsReadAndOneBeyondItIsOutOfRange() {
            assertThat(failure(classify(connect().set("__connect.errors.offset", "9223372036854775807"))).failureKey().offset())
                    .isEqualTo(Long.MAX_VALUE);
            assertThat(failure(classify(connect().set("__connect.errors.offset", "9999999999999999999"))).locationUnknownReason())
                    .isEqualTo("__connect.errors.offset: out of range: '9999999999999999999'");
        }

        @Test
        void aPartitionBeyondAnIntLeavesTheLocationUnknown() {
            assertThat(failure(classify(connect().set("__connect.errors.partition", "2147483648"))).locationUnknownReason())
                    .isEqualTo("__connect.errors.partition: larger than a partition number can be: 2147483648");
        }

        @Test
        void aGroupThisDeploymentDoesNotOwnIsNotOurs() {
            ClassifierSettings billingOnly = new ClassifierSettings(Set.of("billing"), null);

            assertThat(classify(billingOnly, connect())).isEqualTo(new NotOurs("connect-" + CONNECTOR));
            assertThat(classify(new ClassifierSettings(Set.of("connect-" + CONNECTOR), null), connect())).isInstanceOf(Failure.class);
        }

        @Test
        void aReplayThatFailedAgainCarriesItsCorrelationHeadersThrough() {
            Classification classification = classify(connect()
                    .add(ReplayHeaders.ROOT_INCIDENT_ID, utf8("inc-0123456789abcdef0123456789abcdef"))
                    .add(ReplayHeaders.ATTEMPT, utf8("1")));

            assertThat(classification).isInstanceOf(RetryFailure.class);
            assertThat(((RetryFailure) classification).failure().dialect()).isEqualTo(DlqDialect.CONNECT);
        }
    }

    @Nested
    class KafkaStreams {

        @Test
        void aStreamsRecordIsAFailureOfTheApplicationIdSetForItsTopic() {
            FailedRecord failure = failure(classify(topic(DialectSetting.STREAMS, APPLICATION_ID), streams()));

            assertThat(failure.dialect()).isEqualTo(DlqDialect.STREAMS);
            assertThat(failure.failureKey()).isEqualTo(new FailureKey(TOPIC, PARTITION, OFFSET, APPLICATION_ID));
            assertThat(failure.exception().exceptionClass()).isEqualTo("java.lang.IllegalStateException");
            assertThat(failure.originalTimestamp().rawType()).isEqualTo(DlqRecordClassifier.NO_TYPE_HEADER);
        }

        @Test
        void readAutomaticallyItIsRecognisedToo() {
            assertThat(failure(classify(topic(DialectSetting.AUTO, APPLICATION_ID), streams())).dialect()).isEqualTo(DlqDialect.STREAMS);
        }

        @Test
        void withoutAnApplicationIdSetForItsTopicItIsQuarantinedSayingWhatToSet() {
            Classification classification = classify(streams());

            assertThat(classification).isInstanceOf(Malformed.class);
            assertThat(((Malformed) classification).reason()).startsWith("__streams.errors.*: ")
                    .contains("dlqdesk.ingest.dlq-topics[" + DLQ_TOPIC + "].consumer-group");
        }

        @Test
        void aPunctuationsFailureHasNoSourceRecord() {
            FailedRecord failure = failure(classify(topic(DialectSetting.STREAMS, APPLICATION_ID), streams()
                    .set("__streams.errors.topic", (byte[]) null).set("__streams.errors.partition", "-1").set("__streams.errors.offset", "-1")
                    .key(null).value(null)));

            assertThat(failure.originalLocationKnown()).isFalse();
            assertThat(failure.locationUnknownReason()).isEqualTo("__streams.errors.topic: present without a value; "
                    + "__streams.errors.partition: must be >= 0, was -1; __streams.errors.offset: must be >= 0, was -1");
        }
    }

    @Nested
    class Auto {

        @Test
        void aRecordWithNoKnownWritersHeadersIsQuarantinedSayingSo() {
            assertThat(classify(bare())).isEqualTo(new Malformed(DlqRecordClassifier.NO_WRITER));
        }

        @Test
        void springRecordsAreReadAsBefore() {
            assertThat(failure(classify(healthy())).dialect()).isEqualTo(DlqDialect.SPRING);
            assertThat(failure(classify(healthy())).failureKey()).isEqualTo(new FailureKey(TOPIC, PARTITION, OFFSET, GROUP));
        }

        @Test
        void theWriterWhoseHeadersComeLastWrote() {
            DlqRecordBuilder springThenConnect = healthy();
            connect().build().headers().forEach(header -> springThenConnect.add(header.key(), header.value()));
            DlqRecordBuilder connectThenSpring = connect();
            healthy().build().headers().forEach(header -> connectThenSpring.add(header.key(), header.value()));

            assertThat(failure(classify(springThenConnect)).dialect()).as("a Connect sink failed on a Spring DLT record")
                    .isEqualTo(DlqDialect.CONNECT);
            assertThat(failure(classify(connectThenSpring)).dialect()).as("a Spring listener failed on a Connect DLQ record")
                    .isEqualTo(DlqDialect.SPRING);
        }
    }

    @Nested
    class FixedDialect {

        @Test
        void aTopicReadAsConnectRefusesARecordWithoutConnectsHeadersNamingTheSetting() {
            Classification classification = classify(topic(DialectSetting.CONNECT, null), bare());

            assertThat(classification).isInstanceOf(Malformed.class);
            assertThat(((Malformed) classification).reason()).contains("no __connect.errors.* header")
                    .contains("errors.deadletterqueue.context.headers.enable=true");
            assertThat(classify(topic(DialectSetting.CONNECT, null), connect())).isInstanceOf(Failure.class);
        }

        @Test
        void aTopicReadAsStreamsRefusesAConnectRecordAndReadsItsOwn() {
            ClassifierSettings streamsTopic = topic(DialectSetting.STREAMS, APPLICATION_ID);

            assertThat(classify(streamsTopic, connect())).isEqualTo(new Malformed(
                    "the topic is read as a streams DLQ, but the record has no __streams.errors.* header"));
            assertThat(failure(classify(streamsTopic, streams())).dialect()).isEqualTo(DlqDialect.STREAMS);
        }

        @Test
        void aTopicReadAsSpringReadsOnlySpringsHeaders() {
            assertThat(classify(topic(DialectSetting.SPRING, null), connect()))
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": missing"));
            assertThat(failure(classify(topic(DialectSetting.SPRING, null), healthy())).dialect()).isEqualTo(DlqDialect.SPRING);
        }

        @Test
        void otherTopicsKeepTheDefault() {
            ClassifierSettings settings = new ClassifierSettings(null, null, DialectSetting.SPRING,
                    Map.of("payments.dlq", TopicDialect.of(DialectSetting.CONNECT, null)));

            assertThat(classify(settings, connect())).as("orders.dlq is read as spring")
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": missing"));
            assertThat(settings.dialectOf("payments.dlq").dialect()).isEqualTo(DialectSetting.CONNECT);
        }
    }

    @Nested
    class Settings {

        @Test
        void aStreamsTopicNeedsItsApplicationId() {
            assertThatThrownBy(() -> topic(DialectSetting.STREAMS, null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("consumer-group").hasMessageContaining("application.id");
            assertThat(topic(DialectSetting.STREAMS, APPLICATION_ID).dialectOf(DLQ_TOPIC).consumerGroup()).isEqualTo(APPLICATION_ID);
        }

        @Test
        void streamsCannotBeEveryTopicsDefault() {
            assertThatThrownBy(() -> new ClassifierSettings(null, null, DialectSetting.STREAMS, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("per DLQ topic");
            assertThat(new ClassifierSettings(null, null, DialectSetting.CONNECT, null).dialectOf(DLQ_TOPIC).dialect())
                    .isEqualTo(DialectSetting.CONNECT);
        }

        @Test
        void aTopicOrGroupThatCannotBeIsRefused() {
            assertThatThrownBy(() -> new ClassifierSettings(null, null, null, Map.of("orders dlq", TopicDialect.of(DialectSetting.CONNECT))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a Kafka topic name");
            assertThatThrownBy(() -> TopicDialect.of(DialectSetting.STREAMS, "app\nid"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consumer-group: control character");
        }

        @Test
        void theDefaultIsAuto() {
            assertThat(ClassifierSettings.defaults().dialectOf("any.dlq")).isEqualTo(TopicDialect.of(DialectSetting.AUTO));
        }
    }

    @Nested
    class CustomMapping {

        private static final HeaderMapping IN_HOUSE = new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset",
                "x-failed-group", "x-source-time", "x-error-class", "x-error-message", null, null, false);

        private DlqRecordBuilder inHouse() {
            return bare()
                    .add("x-source-topic", utf8(TOPIC))
                    .add("x-source-partition", utf8(Integer.toString(PARTITION)))
                    .add("x-source-offset", utf8(Long.toString(OFFSET)))
                    .add("x-failed-group", utf8(GROUP))
                    .add("x-source-time", utf8(Long.toString(TIMESTAMP - 5)))
                    .add("x-error-class", utf8(CAUSE_FQCN))
                    .add("x-error-message", utf8(MESSAGE));
        }

        private ClassifierSettings custom(HeaderMapping mapping, String group) {
            return new ClassifierSettings(null, null, null, Map.of(DLQ_TOPIC, new TopicDialect(DialectSetting.CUSTOM, group, mapping)));
        }

        @Test
        void anInHouseWritersRecordIsReadByTheMappedHeaders() {
            FailedRecord failure = failure(classify(custom(IN_HOUSE, null), inHouse()));

            assertThat(failure.dialect()).isEqualTo(DlqDialect.CUSTOM);
            assertThat(failure.failureKey()).isEqualTo(new FailureKey(TOPIC, PARTITION, OFFSET, GROUP));
            assertThat(failure.exception()).isEqualTo(new ExceptionSummary(CAUSE_FQCN, MESSAGE));
            assertThat(failure.originalTimestamp().instant()).isEqualTo(Instant.ofEpochMilli(TIMESTAMP - 5));
            assertThat(failure.originalTimestamp().rawType()).isEqualTo(DlqRecordClassifier.CUSTOM_TYPE);
        }

        @Test
        void binaryNumbersAreReadAsSpringWritesThem() {
            HeaderMapping binary = new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset", "x-failed-group", null,
                    null, null, null, HeaderMapping.Numbers.BINARY, false);
            FailedRecord failure = failure(classify(custom(binary, null), inHouse()
                    .set("x-source-partition", int4(PARTITION)).set("x-source-offset", long8(OFFSET))));

            assertThat(failure.failureKey()).isEqualTo(new FailureKey(TOPIC, PARTITION, OFFSET, GROUP));
            assertThat(failure(classify(custom(binary, null), inHouse())).locationUnknownReason())
                    .as("text where binary is mapped").startsWith("x-source-partition: expected 4 bytes");
        }

        @Test
        void withoutATimestampHeaderTheDlqRecordsTimeIsTakenOnlyWhenTheWriterSaysItCopiesTheSources() {
            HeaderMapping noTime = new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset", "x-failed-group", null,
                    null, null, null, null, false);
            HeaderMapping copiesTime = new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset", "x-failed-group", null,
                    null, null, null, null, true);

            assertThat(failure(classify(custom(noTime, null), inHouse())).originalTimestamp())
                    .as("a producer that sets no timestamp stamps the time of the dead-lettering: not taken for the source's").isNull();
            assertThat(failure(classify(custom(copiesTime, null), inHouse())).originalTimestamp())
                    .isEqualTo(OriginalTimestamp.ofEpochMilliWithUnknownType(TIMESTAMP, "none written; the DLQ record's CreateTime"));
            assertThatThrownBy(() -> new HeaderMapping("t", "p", "o", "g", "x-source-time", null, null, null, null, true))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one or the other");
        }

        @Test
        void theRawTypesStoredInEventsAreNeverReworded() { // a part of the failure's content: duplicates and check 8 compare it
            assertThat(DlqRecordClassifier.NO_TYPE_HEADER).isEqualTo("none written; the DLQ record's CreateTime");
            assertThat(DlqRecordClassifier.CUSTOM_TYPE).isEqualTo("none written; the mapped timestamp header");
        }

        @Test
        void aGroupSetForTheTopicStandsInForAGroupHeader() {
            HeaderMapping noGroupHeader = new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset", null, null, null, null,
                    null, null, false);

            assertThat(failure(classify(custom(noGroupHeader, "fulfilment"), inHouse())).failureKey().consumerGroup()).isEqualTo("fulfilment");
            assertThat(classify(custom(IN_HOUSE, null), inHouse().without("x-failed-group")))
                    .isEqualTo(new Malformed("x-failed-group: missing"));
        }

        @Test
        void aMappedTimestampThatIsNoTimeIsQuarantinedAndAMissingOneLeavesNone() {
            assertThat(classify(custom(IN_HOUSE, null), inHouse().set("x-source-time", "yesterday")))
                    .isEqualTo(new Malformed("x-source-time: not a decimal number: 'yesterday'"));
            assertThat(failure(classify(custom(IN_HOUSE, null), inHouse().without("x-source-time"))).originalTimestamp()).isNull();
        }

        @Test
        void aMappingMissingWhatItNeedsIsRefusedAtStartUp() {
            assertThatThrownBy(() -> new HeaderMapping(null, "p", "o", "g", null, null, null, null, null, false))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("headers.topic: required for the custom dialect (the header that holds it)");
            assertThatThrownBy(() -> new HeaderMapping("t", "p", "o", "g\n", null, null, null, null, null, false))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("headers.consumer-group: control character");
            assertThatThrownBy(() -> new TopicDialect(DialectSetting.CUSTOM, null, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs headers");
            assertThatThrownBy(() -> new TopicDialect(DialectSetting.CUSTOM, null,
                    new HeaderMapping("t", "p", "o", null, null, null, null, null, null, false)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the failing group");
            assertThatThrownBy(() -> new TopicDialect(DialectSetting.CONNECT, null, IN_HOUSE))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("set dialect: custom");
            assertThatThrownBy(() -> new ClassifierSettings(null, null, DialectSetting.CUSTOM, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("per DLQ topic");
            assertThat(new TopicDialect(DialectSetting.CUSTOM, null, IN_HOUSE).headers()).isEqualTo(IN_HOUSE);
        }
    }
}
