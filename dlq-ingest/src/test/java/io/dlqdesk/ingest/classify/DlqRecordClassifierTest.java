package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.ingest.classify.Classification.Failure;
import io.dlqdesk.ingest.classify.Classification.Malformed;
import io.dlqdesk.ingest.classify.Classification.NotOurs;
import io.dlqdesk.ingest.classify.Classification.RetryFailure;
import io.dlqdesk.record.EventIdSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.dlqdesk.ingest.classify.DlqRecordBuilder.*;
import static io.dlqdesk.record.DltHeaders.*;
import static org.assertj.core.api.Assertions.assertThat;

class DlqRecordClassifierTest {

    private static final FailureKey FAILURE_KEY = new FailureKey(TOPIC, PARTITION, OFFSET, GROUP);
    private static final RecordLocation DLQ_LOCATION = new RecordLocation(DLQ_TOPIC, DLQ_PARTITION, DLQ_OFFSET);
    private static final OriginalTimestamp ORIGINAL_TIMESTAMP_VALUE =
            OriginalTimestamp.ofEpochMilli(TIMESTAMP, TimestampType.CREATE_TIME);
    private static final ExceptionSummary EXCEPTION = new ExceptionSummary(CAUSE_FQCN, MESSAGE);

    private final DlqRecordClassifier classifier = new DlqRecordClassifier(ClassifierSettings.defaults());

    private Classification classify(DlqRecordBuilder record) {
        return classifier.classify(record.build());
    }

    /** The healthy record's failure with one field overridden where a test changes it. */
    private static FailedRecord failure(FailureKey key, EventId eventId, OriginalTimestamp timestamp,
                                        PayloadHash hash, ExceptionSummary exception) {
        return new FailedRecord(key, DLQ_LOCATION, RecordKey.of(KEY), eventId, timestamp, hash, exception);
    }

    /** The healthy record's failure as one of its group whose original location is unknown, for this reason. */
    private static Failure locationUnknown(String reason) {
        return new Failure(FailedRecord.withUnknownLocation(GROUP, DLQ_LOCATION, RecordKey.of(KEY), new EventId(EVENT_ID),
                ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION, reason));
    }

    private static FailedRecord healthyFailure() {
        return failure(FAILURE_KEY, new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION);
    }

    private static FailedRecord withException(ExceptionSummary exception) {
        return failure(FAILURE_KEY, new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), exception);
    }

    private static FailedRecord withEventId(EventId eventId) {
        return failure(FAILURE_KEY, eventId, ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION);
    }

    private static FailedRecord withTimestamp(OriginalTimestamp timestamp) {
        return failure(FAILURE_KEY, new EventId(EVENT_ID), timestamp, sha256(VALUE), EXCEPTION);
    }

    /** Computed independently of the domain's PayloadHash.of. */
    private static PayloadHash sha256(byte[] bytes) {
        try {
            return new PayloadHash(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void healthyCompleteRecordIsAFailureWithEveryFieldDecoded() {
        Classification result = classify(healthy());

        assertThat(result).isEqualTo(new Failure(healthyFailure()));
        FailedRecord failure = ((Failure) result).failure();
        assertThat(failure.failureKey()).isEqualTo(new FailureKey("orders", 3, 42, "billing"));
        assertThat(failure.dlqLocation()).isEqualTo(new RecordLocation("orders.dlq", 1, 7));
        assertThat(failure.key().bytes()).isEqualTo(KEY);
        assertThat(failure.eventId()).isEqualTo(new EventId("evt-1"));
        // the original's time from the header, not the DLQ record's publish time
        assertThat(failure.originalTimestamp().instant().toEpochMilli()).isEqualTo(TIMESTAMP).isNotEqualTo(DLQ_PUBLISH_TIME);
        assertThat(failure.originalTimestamp().type()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(failure.valueHash()).isEqualTo(sha256(VALUE));
        assertThat(failure.exception()).isEqualTo(new ExceptionSummary(CAUSE_FQCN, "card declined"));
    }

    /** Identifiers that no event or read model could hold whole are quarantined with the field and its length, never cut. */
    @Nested
    class Bounds {

        @Test
        void aGroupAsWideAsTheBoundIsAFailureOfThatGroup() {
            String group = "g".repeat(FailureKey.MAX_GROUP_LENGTH);
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, group)))
                    .isEqualTo(new Failure(failure(new FailureKey(TOPIC, PARTITION, OFFSET, group), new EventId(EVENT_ID),
                            ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
        }

        @Test
        void aGroupOneCharacterWiderIsQuarantinedNamingItsLength() {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, "g".repeat(300))))
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": 300 characters, longer than 255"));
        }

        @Test
        void aHugeGroupIsQuarantinedWithoutBeingDecoded() {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, "g".repeat(1_000_000))))
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": 1000000 bytes, longer than 255 characters can be"));
        }

        @Test
        void aGroupWithALineBreakIsQuarantinedNamingWhere() {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, "billing\nINFO forged")))
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": control character U+000A at index 7"));
        }

        @Test
        void aKeyOf64KiBIsKeptAndOneByteMoreIsQuarantined() {
            assertThat(classify(healthy().key(new byte[RecordKey.MAX_BYTES]))).isInstanceOf(Failure.class);
            assertThat(classify(healthy().key(new byte[RecordKey.MAX_BYTES + 1])))
                    .isEqualTo(new Malformed("record key: 65537 bytes, longer than 65536"));
        }

        @Test
        void aCorrelationHeaderTooLongToKeepIsQuarantinedAndOneWithinTheBoundCorrelates() {
            assertThat(classify(healthy().set(ReplayHeaders.OWNER, "o".repeat(ReplayHeaders.MAX_VALUE_LENGTH))))
                    .isInstanceOf(RetryFailure.class);
            assertThat(classify(healthy().set(ReplayHeaders.OWNER, "o".repeat(ReplayHeaders.MAX_VALUE_LENGTH + 1))))
                    .isEqualTo(new Malformed(ReplayHeaders.OWNER + ": 256 characters, longer than 255"));
            assertThat(classify(healthy().set(ReplayHeaders.TARGET_GROUP, "o".repeat(10_000))))
                    .isEqualTo(new Malformed(ReplayHeaders.TARGET_GROUP + ": 10000 bytes, longer than 255 characters can be"));
        }
    }

    @Nested
    class MandatoryHeaders {

        @Test
        void missingGroupIsMalformed() {
            assertThat(classify(healthy().without(ORIGINAL_CONSUMER_GROUP))).isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": missing"));
        }

        @ParameterizedTest
        @ValueSource(strings = {ORIGINAL_TOPIC, ORIGINAL_PARTITION, ORIGINAL_OFFSET})
        void missingLocationHeaderIsAFailureOfTheGroupKeyedByItsDlqRecord(String header) {
            Classification result = classify(healthy().without(header));

            assertThat(result).isEqualTo(locationUnknown(header + ": missing"));
            FailedRecord failure = ((Failure) result).failure();
            assertThat(failure.originalLocationKnown()).isFalse();
            assertThat(failure.failureKey()).isEqualTo(new FailureKey(DLQ_TOPIC, DLQ_PARTITION, DLQ_OFFSET, GROUP));
        }

        @Test
        void everyBadLocationHeaderIsNamed() {
            assertThat(classify(healthy().without(ORIGINAL_TOPIC).set(ORIGINAL_OFFSET, new byte[3])))
                    .isEqualTo(locationUnknown(ORIGINAL_TOPIC + ": missing; " + ORIGINAL_OFFSET + ": expected 8 bytes, got 3"));
        }

        @Test
        void groupWithoutAValueIsMalformed() {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, (byte[]) null)))
                    .isEqualTo(new Malformed(ORIGINAL_CONSUMER_GROUP + ": present without a value"));
        }

        @Test
        void partitionOfThreeBytesLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_PARTITION, new byte[] {0, 0, 3})))
                    .isEqualTo(locationUnknown("kafka_dlt-original-partition: expected 4 bytes, got 3"));
        }

        @Test
        void partitionOfFiveBytesLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_PARTITION, new byte[] {0, 0, 0, 0, 3})))
                    .isEqualTo(locationUnknown("kafka_dlt-original-partition: expected 4 bytes, got 5"));
        }

        @Test
        void negativePartitionLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_PARTITION, int4(-1))))
                    .isEqualTo(locationUnknown("kafka_dlt-original-partition: must be >= 0, was -1"));
        }

        @Test
        void offsetOfSevenBytesLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_OFFSET, new byte[7])))
                    .isEqualTo(locationUnknown("kafka_dlt-original-offset: expected 8 bytes, got 7"));
        }

        @Test
        void offsetWrittenAsAnIntLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_OFFSET, int4(42))))
                    .isEqualTo(locationUnknown("kafka_dlt-original-offset: expected 8 bytes, got 4"));
        }

        @Test
        void negativeOffsetLeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_OFFSET, long8(-5))))
                    .isEqualTo(locationUnknown("kafka_dlt-original-offset: must be >= 0, was -5"));
        }

        @Test
        void zeroPartitionAndZeroOffsetAreAllowed() {
            Classification result = classify(healthy().set(ORIGINAL_PARTITION, int4(0)).set(ORIGINAL_OFFSET, long8(0)));

            assertThat(result).isEqualTo(new Failure(failure(new FailureKey(TOPIC, 0, 0, GROUP),
                    new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "\t"})
        void blankTopicLeavesTheLocationUnknown(String topic) {
            assertThat(classify(healthy().set(ORIGINAL_TOPIC, topic)))
                    .isEqualTo(locationUnknown("kafka_dlt-original-topic: blank"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"orders/v1", "orders v1", "..", ".", "bestellungen-ü"})
        void illegalTopicNameLeavesTheLocationUnknown(String topic) {
            assertThat(classify(healthy().set(ORIGINAL_TOPIC, topic)))
                    .isEqualTo(locationUnknown("kafka_dlt-original-topic: not a legal Kafka topic name (" + topic.length() + " characters): '" + topic + "'"));
        }

        @Test
        void overlongTopicLeavesTheLocationUnknownWithABoundedReason() {
            String topic = "t".repeat(250);

            assertThat(classify(healthy().set(ORIGINAL_TOPIC, topic))).isEqualTo(locationUnknown(
                    "kafka_dlt-original-topic: not a legal Kafka topic name (250 characters): '" + "t".repeat(100) + "…'"));
        }

        @Test
        void legalTopicNamesAreAllowed() {
            for (String topic : new String[] {"a.b_c-D9", "t".repeat(249)}) {
                assertThat(classify(healthy().set(ORIGINAL_TOPIC, topic))).isEqualTo(new Failure(failure(
                        new FailureKey(topic, PARTITION, OFFSET, GROUP), new EventId(EVENT_ID),
                        ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
            }
        }

        @Test
        void topicThatIsNotUtf8LeavesTheLocationUnknown() {
            assertThat(classify(healthy().set(ORIGINAL_TOPIC, new byte[] {'o', (byte) 0xC3})))
                    .isEqualTo(locationUnknown("kafka_dlt-original-topic: not valid UTF-8"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "  "})
        void blankGroupIsMalformed(String group) {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, group)))
                    .isEqualTo(new Malformed("kafka_dlt-original-consumer-group: blank"));
        }

        @Test
        void duplicateOffsetHeadersTakeTheLastOneTheRecovererAdded() {
            // the original record already carried the header (e.g. it was itself a DLQ record)
            DlqRecordBuilder record = healthy().without(ORIGINAL_OFFSET)
                    .add(ORIGINAL_OFFSET, long8(99)).add(ORIGINAL_OFFSET, long8(OFFSET));

            assertThat(classify(record)).isEqualTo(new Failure(healthyFailure()));
        }

        @Test
        void duplicateOffsetHeadersJudgeOnlyTheLastOne() {
            DlqRecordBuilder corruptFirst = healthy().without(ORIGINAL_OFFSET)
                    .add(ORIGINAL_OFFSET, new byte[3]).add(ORIGINAL_OFFSET, long8(OFFSET));
            DlqRecordBuilder corruptLast = healthy().without(ORIGINAL_OFFSET)
                    .add(ORIGINAL_OFFSET, long8(OFFSET)).add(ORIGINAL_OFFSET, new byte[3]);

            assertThat(classify(corruptFirst)).isEqualTo(new Failure(healthyFailure()));
            assertThat(classify(corruptLast))
                    .isEqualTo(locationUnknown("kafka_dlt-original-offset: expected 8 bytes, got 3"));
        }
    }

    @Nested
    class Ownership {

        private final DlqRecordClassifier ownsBilling =
                new DlqRecordClassifier(new ClassifierSettings(Set.of("billing"), null));

        @Test
        void groupNotOwnedIsNotOurs() {
            assertThat(ownsBilling.classify(healthy().set(ORIGINAL_CONSUMER_GROUP, "shipping").build()))
                    .isEqualTo(new NotOurs("shipping"));
        }

        @Test
        void sameGroupIsOursWhenNoGroupsAreConfigured() {
            assertThat(classify(healthy().set(ORIGINAL_CONSUMER_GROUP, "shipping"))).isEqualTo(new Failure(failure(
                    new FailureKey(TOPIC, PARTITION, OFFSET, "shipping"), new EventId(EVENT_ID),
                    ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
        }

        @Test
        void ownedGroupIsAFailure() {
            assertThat(ownsBilling.classify(healthy().build())).isEqualTo(new Failure(healthyFailure()));
        }

        @Test
        void missingGroupIsMalformedNotNotOurs() {
            assertThat(ownsBilling.classify(healthy().without(ORIGINAL_CONSUMER_GROUP).build()))
                    .isEqualTo(new Malformed("kafka_dlt-original-consumer-group: missing"));
        }

        @Test
        void recordOfAnotherGroupIsNotOursEvenWithACorruptOptionalHeader() {
            // not ours to judge: its optional headers are the owner's business
            DlqRecordBuilder record = healthy().set(ORIGINAL_CONSUMER_GROUP, "shipping")
                    .set(ORIGINAL_TIMESTAMP, new byte[3]);

            assertThat(ownsBilling.classify(record.build())).isEqualTo(new NotOurs("shipping"));
        }
    }

    @Nested
    class OriginalTimestampHeaders {

        @Test
        void timestampOfWrongLengthIsMalformed() {
            assertThat(classify(healthy().set(ORIGINAL_TIMESTAMP, int4(1))))
                    .isEqualTo(new Malformed("kafka_dlt-original-timestamp: expected 8 bytes, got 4"));
        }

        @Test
        void negativeTimestampIsMalformed() {
            assertThat(classify(healthy().set(ORIGINAL_TIMESTAMP, long8(-1))))
                    .isEqualTo(new Malformed("kafka_dlt-original-timestamp: must be >= 0, was -1"));
        }

        @Test
        void absentTimestampIsAFailureWithoutOne() {
            DlqRecordBuilder record = healthy().without(ORIGINAL_TIMESTAMP).without(ORIGINAL_TIMESTAMP_TYPE);

            assertThat(classify(record)).isEqualTo(new Failure(withTimestamp(null)));
        }

        @ParameterizedTest
        @ValueSource(strings = {"createtime", "CREATE_TIME", "NoTimestampType", ""})
        void unknownTimestampTypeKeepsTheInstantAndTheRawType(String type) {
            assertThat(classify(healthy().set(ORIGINAL_TIMESTAMP_TYPE, type))).isEqualTo(
                    new Failure(withTimestamp(OriginalTimestamp.ofEpochMilliWithUnknownType(TIMESTAMP, type))));
        }

        @Test
        void timestampTypeWithoutAValueIsKeptAsAnEmptyRawType() {
            assertThat(classify(healthy().set(ORIGINAL_TIMESTAMP_TYPE, (byte[]) null))).isEqualTo(
                    new Failure(withTimestamp(OriginalTimestamp.ofEpochMilliWithUnknownType(TIMESTAMP, ""))));
        }

        @Test
        void overlongUnknownTimestampTypeIsBounded() {
            Classification result = classify(healthy().set(ORIGINAL_TIMESTAMP_TYPE, "x".repeat(1000)));

            assertThat(((Failure) result).failure().originalTimestamp().rawType()).isEqualTo("x".repeat(63) + "…");
        }

        @Test
        void logAppendTimeIsDecoded() {
            assertThat(classify(healthy().set(ORIGINAL_TIMESTAMP_TYPE, "LogAppendTime"))).isEqualTo(new Failure(
                    withTimestamp(OriginalTimestamp.ofEpochMilli(TIMESTAMP, TimestampType.LOG_APPEND_TIME))));
        }

        @Test
        void absentTypeWithATimestampMeansCreateTime() {
            assertThat(classify(healthy().without(ORIGINAL_TIMESTAMP_TYPE))).isEqualTo(new Failure(healthyFailure()));
        }
    }

    @Nested
    class ExceptionHeaders {

        @Test
        void causeIsPreferredOverTheWrapper() {
            assertThat(((Failure) classify(healthy())).failure().exception().exceptionClass()).isEqualTo(CAUSE_FQCN);
        }

        @Test
        void wrapperIsUsedWhenThereIsNoCause() {
            assertThat(classify(healthy().without(EXCEPTION_CAUSE_FQCN)))
                    .isEqualTo(new Failure(withException(new ExceptionSummary(WRAPPER_FQCN, MESSAGE))));
        }

        @Test
        void missingExceptionHeadersGiveNoSummary() {
            DlqRecordBuilder record = healthy().without(EXCEPTION_FQCN).without(EXCEPTION_CAUSE_FQCN)
                    .without(EXCEPTION_MESSAGE).without(EXCEPTION_STACKTRACE);

            assertThat(classify(record)).isEqualTo(new Failure(withException(null)));
        }

        @Test
        void missingMessageGivesANullMessage() {
            assertThat(classify(healthy().without(EXCEPTION_MESSAGE)))
                    .isEqualTo(new Failure(withException(new ExceptionSummary(CAUSE_FQCN, null))));
        }

        @Test
        void nonUtf8MessageIsDecodedWithReplacementCharacters() {
            DlqRecordBuilder record = healthy().set(EXCEPTION_MESSAGE, new byte[] {'b', 'a', 'd', (byte) 0xFF, '!'});

            assertThat(classify(record))
                    .isEqualTo(new Failure(withException(new ExceptionSummary(CAUSE_FQCN, "bad\uFFFD!"))));
        }

        @Test
        void veryLongMessageIsBounded() {
            String message = "x".repeat(1_000_000);

            // the event keeps the bound and proves which message it was cut from
            assertThat(classify(healthy().set(EXCEPTION_MESSAGE, message))).isEqualTo(new Failure(withException(
                    new ExceptionSummary(CAUSE_FQCN, "x".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH - 1) + "…", 1_000_000,
                            sha256(message.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hex()))));
        }

        @Test
        void longMessageOfFourByteCharactersIsCutOnACodePointBoundary() {
            String message = "😀".repeat(5_000); // 2 chars, 4 bytes each

            assertThat(classify(healthy().set(EXCEPTION_MESSAGE, message))).isEqualTo(new Failure(withException(
                    new ExceptionSummary(CAUSE_FQCN, "😀".repeat(999) + "…", 20_000,
                            sha256(message.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hex()))));
        }

        @Test
        void messageAtTheLimitIsKeptWhole() {
            String message = "é".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH);

            assertThat(classify(healthy().set(EXCEPTION_MESSAGE, message)))
                    .isEqualTo(new Failure(withException(new ExceptionSummary(CAUSE_FQCN, message))));
        }

        @Test
        void overlongClassNameIsBounded() {
            String longClass = "c".repeat(600);

            assertThat(classify(healthy().set(EXCEPTION_CAUSE_FQCN, longClass))).isEqualTo(new Failure(withException(
                    new ExceptionSummary("c".repeat(ExceptionSummary.MAX_CLASS_LENGTH - 1) + "…", MESSAGE))));
        }
    }

    @Nested
    class Payload {

        @Test
        void tombstoneHasNoHash() {
            assertThat(classify(healthy().value(null))).isEqualTo(new Failure(
                    failure(FAILURE_KEY, new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, null, EXCEPTION)));
        }

        @Test
        void emptyValueIsHashedUnlikeATombstone() {
            assertThat(classify(healthy().value(new byte[0]))).isEqualTo(new Failure(failure(FAILURE_KEY,
                    new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, sha256(new byte[0]), EXCEPTION)));
        }

        @Test
        void oneMebibyteValueIsHashedOverItsRawBytes() {
            byte[] value = new byte[1 << 20];
            new Random(7).nextBytes(value); // not valid UTF-8: a String round trip would change the hash

            Classification result = classify(healthy().value(value));

            assertThat(result).isEqualTo(new Failure(failure(FAILURE_KEY, new EventId(EVENT_ID),
                    ORIGINAL_TIMESTAMP_VALUE, sha256(value), EXCEPTION)));
            assertThat(((Failure) result).failure().valueHash()).isNotEqualTo(sha256(Arrays.copyOf(value, value.length - 1)));
        }

        @Test
        void missingKeyIsNone() {
            Classification result = classify(healthy().key(null));

            assertThat(result).isEqualTo(new Failure(new FailedRecord(FAILURE_KEY, DLQ_LOCATION, RecordKey.NONE,
                    new EventId(EVENT_ID), ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
            assertThat(((Failure) result).failure().key()).isNotEqualTo(RecordKey.of(new byte[0]));
        }
    }

    @Nested
    class EventIds {

        @Test
        void hugeEventIdHeaderGivesNoEventIdButStillAFailure() {
            assertThat(classify(healthy().set("eventId", "e".repeat(1 << 20)))).isEqualTo(new Failure(withEventId(null)));
        }

        @Test
        void eventIdAtTheMaximumLengthIsKept() {
            String id = "e".repeat(EventId.MAX_LENGTH);

            assertThat(classify(healthy().set("eventId", id))).isEqualTo(new Failure(withEventId(new EventId(id))));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "  ", "evt\n1", "evt\u00001"})
        void eventIdTheDomainRejectsGivesNoEventId(String id) {
            assertThat(classify(healthy().set("eventId", id))).isEqualTo(new Failure(withEventId(null)));
        }

        @Test
        void eventIdOneCharacterTooLongGivesNoEventId() {
            assertThat(classify(healthy().set("eventId", "e".repeat(EventId.MAX_LENGTH + 1))))
                    .isEqualTo(new Failure(withEventId(null)));
        }

        @Test
        void eventIdHeaderThatIsNotUtf8GivesNoEventId() {
            assertThat(classify(healthy().set("eventId", new byte[] {'e', (byte) 0xFE})))
                    .isEqualTo(new Failure(withEventId(null)));
        }

        @Test
        void missingEventIdHeaderGivesNoEventId() {
            assertThat(classify(healthy().without("eventId"))).isEqualTo(new Failure(withEventId(null)));
        }

        @Test
        void configuredHeaderNameIsUsed() {
            DlqRecordClassifier custom = new DlqRecordClassifier(new ClassifierSettings(null, new EventIdSource("x-event-id", null)));

            assertThat(custom.classify(healthy().add("x-event-id", utf8("evt-custom")).build()))
                    .isEqualTo(new Failure(withEventId(new EventId("evt-custom"))));
        }

        private final DlqRecordClassifier jsonForOrders =
                new DlqRecordClassifier(new ClassifierSettings(null, new EventIdSource(null, Map.of(TOPIC, "id"))));

        private Classification classifyJson(DlqRecordBuilder record) {
            return jsonForOrders.classify(record.build());
        }

        private FailedRecord withEventIdAndValue(EventId eventId, byte[] value) {
            return failure(FAILURE_KEY, eventId, ORIGINAL_TIMESTAMP_VALUE, value == null ? null : sha256(value), EXCEPTION);
        }

        @Test
        void eventIdFromJsonFieldReplacesTheHeader() {
            assertThat(classifyJson(healthy())).isEqualTo(new Failure(withEventId(new EventId("evt-json"))));
        }

        @Test
        void integerJsonFieldIsAnEventId() {
            byte[] value = utf8("{\"id\":12345}");

            assertThat(classifyJson(healthy().value(value)))
                    .isEqualTo(new Failure(withEventIdAndValue(new EventId("12345"), value)));
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "{\"other\":\"evt-json\"}",        // field missing
                "not json at all",                 // not JSON
                "{\"id\":\"evt-json\"} trailing",  // JSON followed by garbage
                "{\"id\":\"evt-json\"",            // truncated
                "{\"id\":{\"nested\":\"x\"}}",     // object
                "{\"id\":[\"evt\"]}",              // array
                "{\"id\":true}",                   // boolean
                "{\"id\":null}",                   // null
                "{\"id\":1.5}",                    // float: text not stable
                "{\"id\":\"\"}",                   // blank string
                "[{\"id\":\"evt-json\"}]",         // not an object at top level
                "{\"data\":{\"id\":\"evt-json\"}}" // not top level
        })
        void unusableJsonGivesNoEventIdAndIgnoresTheHeader(String json) {
            byte[] value = utf8(json);

            assertThat(classifyJson(healthy().value(value))).isEqualTo(new Failure(withEventIdAndValue(null, value)));
        }

        @Test
        void tombstoneOfAJsonTopicGivesNoEventId() {
            assertThat(classifyJson(healthy().value(null))).isEqualTo(new Failure(withEventIdAndValue(null, null)));
        }

        @Test
        void topicWithoutAJsonFieldStillUsesTheHeader() {
            DlqRecordBuilder record = healthy().set(ORIGINAL_TOPIC, "payments");

            assertThat(classifyJson(record)).isEqualTo(new Failure(failure(
                    new FailureKey("payments", PARTITION, OFFSET, GROUP), new EventId(EVENT_ID),
                    ORIGINAL_TIMESTAMP_VALUE, sha256(VALUE), EXCEPTION)));
        }
    }

    @Nested
    class CorrelationHeaders {

        @Test
        void onlyTheAttemptHeaderIsARetryFailureWithTheOthersNull() {
            assertThat(classify(healthy().add(ReplayHeaders.ATTEMPT, utf8("2")))).isEqualTo(
                    new RetryFailure(healthyFailure(), new ReplayHeaders(null, "2", null, null)));
        }

        @Test
        void allFourHeadersAreKeptRaw() {
            DlqRecordBuilder record = healthy()
                    .add(ReplayHeaders.ROOT_INCIDENT_ID, utf8("inc-0123456789abcdef"))
                    .add(ReplayHeaders.ATTEMPT, utf8("1"))
                    .add(ReplayHeaders.OWNER, utf8("desk-prod"))
                    .add(ReplayHeaders.TARGET_GROUP, utf8(GROUP));

            assertThat(classify(record)).isEqualTo(new RetryFailure(healthyFailure(),
                    new ReplayHeaders("inc-0123456789abcdef", "1", "desk-prod", GROUP)));
        }

        @Test
        void forgedRootIdIsKeptRawForTheDomainToReject() {
            String forged = "inc-../../'; DROP TABLE incident;--";

            assertThat(classify(healthy().add(ReplayHeaders.ROOT_INCIDENT_ID, utf8(forged)))).isEqualTo(
                    new RetryFailure(healthyFailure(), new ReplayHeaders(forged, null, null, null)));
        }

        @Test
        void correlationHeaderWithoutAValueStillMarksARetry() {
            assertThat(classify(healthy().add(ReplayHeaders.OWNER, null))).isEqualTo(
                    new RetryFailure(healthyFailure(), new ReplayHeaders(null, null, null, null)));
        }

        @Test
        void noCorrelationHeaderIsAFirstFailure() {
            assertThat(classify(healthy())).isInstanceOf(Failure.class);
        }
    }

    @Nested
    class NeverThrows {

        @Test
        void nullRecordIsMalformed() {
            assertThat(classifier.classify(null)).isEqualTo(new Malformed("no record"));
        }

        @Test
        void internalFailureBecomesMalformedWithItsCause() {
            // a DLQ record location the domain refuses: the kind of surprise a bug would raise
            assertThat(classify(healthy().dlqPartition(-1))).isEqualTo(new Malformed(
                    "classifier error: io.dlqdesk.domain.InvalidValueException: partition must be >= 0, was -1"));
        }

        @Test
        void randomHeaderBytesNeverThrow() {
            Random random = new Random(42);
            String[] names = {ORIGINAL_TOPIC, ORIGINAL_PARTITION, ORIGINAL_OFFSET, ORIGINAL_TIMESTAMP,
                    ORIGINAL_TIMESTAMP_TYPE, ORIGINAL_CONSUMER_GROUP, EXCEPTION_FQCN, EXCEPTION_CAUSE_FQCN,
                    EXCEPTION_MESSAGE, "eventId", ReplayHeaders.ATTEMPT};
            DlqRecordClassifier json = new DlqRecordClassifier(new ClassifierSettings(null, new EventIdSource(null, Map.of(TOPIC, "id"))));
            for (int i = 0; i < 2_000; i++) {
                DlqRecordBuilder record = healthy();
                Set<String> touched = new HashSet<>();
                for (String name : names) {
                    if (random.nextInt(4) == 0) {
                        record.set(name, random.nextInt(8) == 0 ? null : randomBytes(random));
                        touched.add(name);
                    }
                }
                if (random.nextBoolean()) {
                    record.value(random.nextInt(8) == 0 ? null : randomBytes(random));
                }
                ConsumerRecord<byte[], byte[]> built = record.build();

                for (Classification result : List.of(classifier.classify(built), json.classify(built))) {
                    assertThat(result).isNotNull();
                    if (result instanceof Malformed malformed && malformed.reason().startsWith(ReplayHeaders.ATTEMPT + ":")) {
                        // a correlation header that cannot be kept whole (control characters, here) quarantines too
                        assertThat(touched).contains(ReplayHeaders.ATTEMPT);
                        assertThat(malformed.reason()).contains("control characters");
                        continue;
                    }
                    if (result instanceof Malformed malformed) {
                        // otherwise only the group or a corrupt timestamp quarantines; a bug ("classifier error") never does
                        assertThat(malformed.reason()).startsWith(touched.contains(ORIGINAL_CONSUMER_GROUP) ? "kafka_dlt-" : ORIGINAL_TIMESTAMP + ":");
                        assertThat(touched).containsAnyOf(ORIGINAL_CONSUMER_GROUP, ORIGINAL_TIMESTAMP);
                        continue;
                    }
                    FailedRecord failure = result instanceof Failure first ? first.failure() : ((RetryFailure) result).failure();
                    assertThat(result instanceof RetryFailure).isEqualTo(touched.contains(ReplayHeaders.ATTEMPT));
                    boolean locationTouched = touched.contains(ORIGINAL_TOPIC) || touched.contains(ORIGINAL_PARTITION)
                            || touched.contains(ORIGINAL_OFFSET);
                    if (!locationTouched) {
                        assertThat(failure.originalLocationKnown()).isTrue();
                        assertThat(failure.failureKey().location()).isEqualTo(new RecordLocation(TOPIC, PARTITION, OFFSET));
                    } else if (!failure.originalLocationKnown()) {
                        assertThat(failure.failureKey().location()).isEqualTo(DLQ_LOCATION);
                        assertThat(failure.locationUnknownReason()).startsWith("kafka_dlt-original-");
                    }
                    if (!touched.contains(ORIGINAL_CONSUMER_GROUP)) {
                        assertThat(failure.failureKey().consumerGroup()).isEqualTo(GROUP);
                    }
                }
            }
        }

        private static byte[] randomBytes(Random random) {
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            return bytes;
        }
    }
}
