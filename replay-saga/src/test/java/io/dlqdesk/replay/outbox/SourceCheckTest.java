package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.replay.source.SourceRead;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

class SourceCheckTest {

    private static final FailureKey ROOT = new FailureKey("orders", 4, 17L, "billing");
    private static final IncidentId ID = IncidentId.of(ROOT);
    private static final RecordLocation AT = ROOT.location();
    private static final byte[] KEY = {7};
    private static final byte[] VALUE = {(byte) 0xFF, 0x00, (byte) 0x80};
    private static final OutboxRow ROW = new OutboxRow(ID.replayId(1), ID, 1, AT, RecordKey.of(KEY), PayloadHash.of(VALUE), "billing",
            "desk-eu", OutboxRow.Status.PENDING, 0, null, null, null, null);

    @Test
    void theRecordedRecordAtItsOffsetIsUnchangedAndMayBeSent() {
        ConsumerRecord<byte[], byte[]> record = record(17L, KEY, VALUE);

        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record))).isEqualTo(new SourceCheck.Unchanged(record));
    }

    @Test
    void aLaterRecordReturnedForTheOffsetMeansTheRecordWasCompactedAway() {
        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record(18L, KEY, VALUE))))
                .isEqualTo(new SourceCheck.Changed("source offset 17 now returns offset 18 (compacted)"));
    }

    @Test
    void anotherValueOrATombstoneAtTheOffsetIsChanged() {
        SourceCheck.Changed changed = new SourceCheck.Changed("source value no longer has the recorded SHA-256");

        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record(17L, KEY, new byte[] {1})))).isEqualTo(changed);
        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record(17L, KEY, null)))).isEqualTo(changed);
    }

    @Test
    void anotherKeyOrNoKeyAtTheOffsetIsChanged() {
        SourceCheck.Changed changed = new SourceCheck.Changed("source key is no longer the recorded key");

        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record(17L, new byte[] {8}, VALUE)))).isEqualTo(changed);
        assertThat(SourceCheck.of(ROW, new SourceRead.Found(AT, record(17L, null, VALUE)))).isEqualTo(changed);
    }

    @ParameterizedTest
    @EnumSource(value = SourceRead.Reason.class, names = {"TOPIC_MISSING", "PARTITION_MISSING", "BELOW_LOG_START"})
    void aLocationNoLongerInTheLogIsAGoneRecord(SourceRead.Reason reason) {
        assertThat(SourceCheck.of(ROW, new SourceRead.NotThere(AT, reason, "deleted")))
                .isEqualTo(new SourceCheck.Changed("source record gone: deleted"));
    }

    @Test
    void nothingReadableFromTheOffsetIsAGoneRecord() {
        assertThat(SourceCheck.of(ROW, new SourceRead.NothingReadable(AT, "only aborted records")))
                .isEqualTo(new SourceCheck.Changed("source record gone: only aborted records"));
    }

    @Test
    void anOffsetAtOrAfterTheLogEndMayBecomeReadableAndIsNotDecidedYet() {
        assertThat(SourceCheck.of(ROW, new SourceRead.NotThere(AT, SourceRead.Reason.AT_OR_AFTER_LOG_END, "end is 17")))
                .isEqualTo(new SourceCheck.Unreadable("source record not readable yet: end is 17"));
    }

    @Test
    void anUnavailableBrokerOrNoAnswerAtAllDecidesNothingAboutTheRecord() {
        assertThat(SourceCheck.of(ROW, new SourceRead.Unavailable(AT, "timed out")))
                .isEqualTo(new SourceCheck.Unreadable("source record could not be read: timed out"));
        assertThat(SourceCheck.of(ROW, null)).isInstanceOf(SourceCheck.Unreadable.class);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, byte[] key, byte[] value) {
        return new ConsumerRecord<>(AT.topic(), AT.partition(), offset, key, value);
    }
}
