package io.dlqdesk.parked;

import org.axonframework.common.DateTimeUtils;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.eventhandling.deadletter.jdbc.DefaultDeadLetterStatementFactory;
import org.axonframework.serialization.Serializer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The table Axon's JDBC dead-letter queue keeps parked events in (Flyway's V700) and the statements it runs there. Two
 * of Axon's 4.13.0 statements page a list by comparing a letter's index in its sequence with the number of rows already
 * read (axon issue #4544): with more than a page of parked sequences, "retry" skipped sequences and a long sequence was
 * read twice (its sequence reads also ask for a whole sequence on every page). Here both page with OFFSET, a sequence
 * {@code pageSize} letters at a time; the rest are Axon's own.
 */
final class ParkedEventTable extends DefaultDeadLetterStatementFactory<EventMessage<?>> {

    static final String TABLE = "parked_event";

    static final DeadLetterSchema SCHEMA = DeadLetterSchema.builder()
            .deadLetterTable(TABLE)
            .deadLetterIdentifierColumn("dead_letter_id")
            .processingGroupColumn("processing_group")
            .sequenceIdentifierColumn("sequence_identifier")
            .sequenceIndexColumn("sequence_index")
            .messageTypeColumn("message_type")
            .eventIdentifierColumn("event_identifier")
            .timestampColumn("time_stamp")
            .payloadTypeColumn("payload_type")
            .payloadRevisionColumn("payload_revision")
            .payloadColumn("payload")
            .metaDataColumn("meta_data")
            .aggregateTypeColumn("aggregate_type")
            .aggregateIdentifierColumn("aggregate_identifier")
            .sequenceNumberColumn("sequence_number")
            .tokenTypeColumn("token_type")
            .tokenColumn("token")
            .enqueuedAtColumn("enqueued_at")
            .lastTouchedColumn("last_touched")
            .processingStartedColumn("processing_started")
            .causeTypeColumn("cause_type")
            .causeMessageColumn("cause_message")
            .diagnosticsColumn("diagnostics")
            .build();

    private final int pageSize;

    private ParkedEventTable(Builder<EventMessage<?>> builder, int pageSize) {
        super(builder.schema(SCHEMA));
        this.pageSize = pageSize;
    }

    /** {@code pageSize}: the queue's own, which it pages a sequence's letters by. */
    static ParkedEventTable statements(Serializer genericSerializer, Serializer eventSerializer, int pageSize) {
        return new ParkedEventTable(DefaultDeadLetterStatementFactory.<EventMessage<?>>builder().genericSerializer(genericSerializer)
                .eventSerializer(eventSerializer), pageSize);
    }

    /** The heads of the claimable sequences, least recently tried first, a page at a time. */
    @Override
    public PreparedStatement claimableSequencesStatement(Connection connection, String processingGroup,
                                                         Instant processingStartedLimit, int offset, int maxSize)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + TABLE + " dl WHERE dl.processing_group = ?"
                        + " AND dl.sequence_index = (SELECT MIN(dl2.sequence_index) FROM " + TABLE + " dl2"
                        + " WHERE dl2.processing_group = dl.processing_group AND dl2.sequence_identifier = dl.sequence_identifier)"
                        + " AND (dl.processing_started IS NULL OR dl.processing_started < ?)"
                        + " ORDER BY dl.last_touched, dl.dead_letter_id LIMIT ? OFFSET ?",
                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        statement.setString(1, processingGroup);
        statement.setString(2, DateTimeUtils.formatInstant(processingStartedLimit));
        statement.setInt(3, maxSize);
        statement.setInt(4, offset);
        return statement;
    }

    /** One sequence's letters in order, a page at a time ({@code maxSize} is the whole sequence's bound, not a page). */
    @Override
    public PreparedStatement letterSequenceStatement(Connection connection, String processingGroup,
                                                     String sequenceId, int offset, int maxSize) throws SQLException {
        PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + TABLE
                        + " WHERE processing_group = ? AND sequence_identifier = ? ORDER BY sequence_index LIMIT ? OFFSET ?",
                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        statement.setString(1, processingGroup);
        statement.setString(2, sequenceId);
        statement.setInt(3, Math.min(maxSize, pageSize));
        statement.setInt(4, offset);
        return statement;
    }
}
