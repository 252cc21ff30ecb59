package io.dlqdesk.replay.request;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.EvaluateReplayCommand;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import io.dlqdesk.record.EventIdExtractor;
import io.dlqdesk.replay.source.KeyFreshnessReader;
import io.dlqdesk.replay.source.PartitionEndReader;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Asks for a replay: reads the source record at the incident's recorded location (a side effect, so
 * here and not in the aggregate), then hands what it found, the topic's policy and the switch to the
 * aggregate, which accepts one attempt or records every failed condition.
 */
public class ReplayRequester {

    private static final Logger log = LoggerFactory.getLogger(ReplayRequester.class);

    private final SourceRecordReader reader;
    private final PartitionEndReader topics;
    private final KeyFreshnessReader freshness;
    private final EventIdExtractor eventIds;
    private final ReplaySwitch replaySwitch;
    private final ReplayPolicies policies;
    private final String ledgerName;
    private final CommandGateway commands;

    public ReplayRequester(SourceRecordReader reader, PartitionEndReader topics, KeyFreshnessReader freshness, EventIdExtractor eventIds,
                           ReplaySwitch replaySwitch, ReplayPolicies policies, String ledgerName, CommandGateway commands) {
        this.reader = reader;
        this.topics = topics;
        this.freshness = freshness;
        this.eventIds = eventIds;
        this.replaySwitch = replaySwitch;
        this.policies = policies;
        this.ledgerName = ledgerName;
        this.commands = commands;
    }

    /**
     * @param recordedLocation where the incident says its original record is
     * @param targetGroup      the group that failed on it (the stale-key check reads its committed offset)
     * @param overrideStaleKey replay even when the target group has processed a newer record with the key (the reason says why)
     * @param edit             the approved edit to publish in place of the record's value and headers; null: the record as it is
     * @throws SourceUnavailableException when the broker could not be asked: nothing is recorded then
     */
    public ReplayOutcome request(IncidentId incidentId, RecordLocation recordedLocation, String targetGroup, OperatorAction requestedBy,
                                 boolean overrideStaleKey, Integer edit) {
        ReplayOutcome outcome = commands.sendAndWait(command(incidentId, recordedLocation, targetGroup, requestedBy, overrideStaleKey)
                .withEdit(edit));
        if (outcome.attempt() != null) {
            log.info("replay of {} accepted as attempt {}{} (by {}: {})", incidentId, outcome.attempt(), edit == null ? "" : " of edit " + edit,
                    requestedBy.principal(), requestedBy.reason());
        } else {
            log.info("replay of {} refused: {} (by {})", incidentId, outcome.refusals(), requestedBy.principal());
        }
        return outcome;
    }

    /**
     * A dry run: the source record is read back as for a request (a bounded side effect) and the incident evaluates the
     * same conditions, recording nothing.
     *
     * @return every condition that would refuse the replay; empty when it would be requested
     * @throws SourceUnavailableException when the broker could not be asked
     */
    public List<ReplayRefusal> evaluate(IncidentId incidentId, RecordLocation recordedLocation, String targetGroup, OperatorAction requestedBy) {
        return commands.sendAndWait(new EvaluateReplayCommand(command(incidentId, recordedLocation, targetGroup, requestedBy, false)));
    }

    /**
     * The request a single replay would send, with the source record read back now (a side effect, so before any unit of
     * work that sends it): a replay job sends it itself, in the unit of work that claims the incident on the job.
     *
     * @throws SourceUnavailableException when the broker could not be asked
     */
    public RequestReplayCommand prepare(IncidentId incidentId, RecordLocation recordedLocation, String targetGroup, OperatorAction requestedBy) {
        return command(incidentId, recordedLocation, targetGroup, requestedBy, false);
    }

    private RequestReplayCommand command(IncidentId incidentId, RecordLocation recordedLocation, String targetGroup, OperatorAction requestedBy,
                                         boolean overrideStaleKey) {
        SourceRead read = reader.read(recordedLocation);
        SourceRecordFacts facts = facts(incidentId, read);
        KeyFreshness fresh = read instanceof SourceRead.Found found
                ? freshness.check(recordedLocation, found.record().key(), found.record().value(), targetGroup)
                : KeyFreshness.notChecked("the source record was not read back");
        return new RequestReplayCommand(incidentId, facts, policies.forTopic(recordedLocation.topic()), replaySwitch.isOn(), ledgerName,
                requestedBy, fresh, overrideStaleKey);
    }

    private SourceRecordFacts facts(IncidentId incidentId, SourceRead read) {
        if (read instanceof SourceRead.Found found) {
            return facts(found.requested(), found.record()).withRetention(topics.retentionMs(found.requested().topic()));
        } else if (read instanceof SourceRead.NotThere notThere) {
            log.info("source record of {} is not in the log: {}", incidentId, notThere.detail());
            return SourceRecordFacts.outOfRange(notThere.requested());
        } else if (read instanceof SourceRead.NothingReadable nothing) {
            log.info("source record of {} cannot be read: {}", incidentId, nothing.detail());
            return SourceRecordFacts.notFound(nothing.requested());
        }
        throw new SourceUnavailableException(incidentId, ((SourceRead.Unavailable) read).detail());
    }

    /** What the aggregate compares: offset, key bytes, eventId (read as ingest reads it), value hash and the record's own timestamp. */
    SourceRecordFacts facts(RecordLocation readAt, ConsumerRecord<byte[], byte[]> record) {
        RecordKey key = RecordKey.of(record.key());
        EventId eventId = eventIds.extract(record.topic(), record.headers(), record.value());
        OriginalTimestamp timestamp = timestampOf(record);
        if (record.value() == null) {
            return SourceRecordFacts.tombstone(readAt, record.offset(), key, eventId, timestamp);
        }
        return SourceRecordFacts.found(readAt, record.offset(), key, eventId, PayloadHash.of(record.value()), timestamp);
    }

    /** Null for a record without one (the oldest message format): it cannot show it is the recorded one. */
    static OriginalTimestamp timestampOf(ConsumerRecord<byte[], byte[]> record) {
        if (record.timestamp() < 0) {
            return null;
        }
        return switch (record.timestampType()) {
            case CREATE_TIME -> OriginalTimestamp.ofEpochMilli(record.timestamp(), TimestampType.CREATE_TIME);
            case LOG_APPEND_TIME -> OriginalTimestamp.ofEpochMilli(record.timestamp(), TimestampType.LOG_APPEND_TIME);
            case NO_TIMESTAMP_TYPE -> OriginalTimestamp.ofEpochMilliWithUnknownType(record.timestamp(), record.timestampType().name);
        };
    }
}
