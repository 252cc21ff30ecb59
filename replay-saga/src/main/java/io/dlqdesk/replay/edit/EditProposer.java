package io.dlqdesk.replay.edit;

import io.dlqdesk.domain.IncidentCommandRefusedException;
import io.dlqdesk.domain.IncidentErrorCode;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.edit.ProposeReplayEditCommand;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.record.EventIdExtractor;
import io.dlqdesk.replay.request.SourceUnavailableException;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * Proposes an edit: reads the source record back (a side effect, so here and not in the aggregate), diffs the edit against
 * it, reads the edited record's event id as ingest would, stores the edited bytes, and asks the incident to record the
 * proposal with the diff and the hashes.
 */
public class EditProposer {

    private static final Logger log = LoggerFactory.getLogger(EditProposer.class);

    private final SourceRecordReader reader;
    private final EditContentStore contents;
    private final EventIdExtractor eventIds;
    private final CommandGateway commands;

    public EditProposer(SourceRecordReader reader, EditContentStore contents, EventIdExtractor eventIds, CommandGateway commands) {
        this.reader = reader;
        this.contents = contents;
        this.eventIds = eventIds;
        this.commands = commands;
    }

    /**
     * @param source where the incident says its record is
     * @return the edit's number and its diff
     * @throws SourceUnavailableException when the broker could not be asked: nothing is recorded then
     * @throws IncidentCommandRefusedException EDIT_SOURCE_GONE when the record is no longer there to edit, or the incident's refusal
     */
    public Proposal propose(IncidentId incidentId, RecordLocation source, EditedContent edit, OperatorAction proposedBy) {
        ConsumerRecord<byte[], byte[]> record = sourceRecord(incidentId, source);
        Headers editedHeaders = edit.replacing(record.headers());
        EditDiff diff = EditDiffs.between(record.value(), edit.value(), record.headers(), editedHeaders);
        EventId editedEventId = eventIds.extract(source.topic(), editedHeaders, edit.value());
        contents.save(incidentId, edit);
        int number = commands.sendAndWait(new ProposeReplayEditCommand(incidentId, edit.valueHash(), edit.hash(), editedEventId,
                edit.value().length, diff, proposedBy));
        log.info("edit {} of {} proposed by {} ({} value changes, {} header changes)", number, incidentId, proposedBy.principal(),
                diff.value().size(), diff.headers().size());
        return new Proposal(number, diff);
    }

    /** A recorded proposal: the edit's number and its diff against the source record. */
    public record Proposal(int edit, EditDiff diff) {
    }

    private ConsumerRecord<byte[], byte[]> sourceRecord(IncidentId incidentId, RecordLocation source) {
        SourceRead read = reader.read(source);
        if (read instanceof SourceRead.Unavailable unavailable) {
            throw new SourceUnavailableException(incidentId, unavailable.detail());
        }
        if (!(read instanceof SourceRead.Found found) || !found.atRequestedOffset()) {
            String detail = read instanceof SourceRead.NotThere notThere ? notThere.detail()
                    : read instanceof SourceRead.NothingReadable nothing ? nothing.detail() : "the offset now returns another record (compacted)";
            throw new IncidentCommandRefusedException(incidentId, IncidentErrorCode.EDIT_SOURCE_GONE, "the source record at " + source
                    + " cannot be edited: " + detail);
        }
        if (found.record().value() == null) {
            throw new IncidentCommandRefusedException(incidentId, IncidentErrorCode.EDIT_SOURCE_GONE, "the source record at " + source
                    + " is a tombstone: it is never replayed");
        }
        return found.record();
    }
}
