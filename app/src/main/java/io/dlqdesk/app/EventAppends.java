package io.dlqdesk.app;

import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A unit of work's events as multi-row INSERTs built here and run once each, payload and metadata bound as text. Two
 * costs of Axon's batched statement on Connector/J go: on a utf8mb4 connection the driver sends a byte[] parameter as a hex
 * literal built one byte at a time (a quarter of the ingest workers' CPU in the bench), and rewriting a JDBC batch into
 * one statement escapes every value twice, once to size the statement and once to write it. What is stored is unchanged:
 * the serializer's UTF-8 JSON bytes, decoded here and encoded again by the connection. That holds only while the
 * connection speaks utf8mb4 ({@link #possibleOn}); on any other character set the engine appends as Axon does.
 */
final class EventAppends {

    /** Rows per statement, and about the bytes of their payloads and metadata: one statement stays far below max_allowed_packet. */
    static final int MAX_ROWS = 500;
    static final int MAX_BYTES = 1 << 20;

    private static final String UTF8MB4 = "utf8mb4";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private EventAppends() {
    }

    /** Whether the server reads this data source's string parameters as utf8mb4, so text round-trips to the same bytes. */
    static boolean possibleOn(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement("SELECT @@character_set_client, @@character_set_connection");
             ResultSet result = query.executeQuery()) {
            return result.next() && UTF8MB4.equalsIgnoreCase(result.getString(1)) && UTF8MB4.equalsIgnoreCase(result.getString(2));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the database connection's character set: " + e.getMessage(), e);
        }
    }

    /** The events serialized once, in order, cut into statements of at most {@link #MAX_ROWS} rows and about {@link #MAX_BYTES}. */
    static List<Insert> inserts(List<? extends EventMessage<?>> events, Serializer serializer) {
        List<Insert> inserts = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        long bytes = 0;
        for (EventMessage<?> message : events) {
            Row row = Row.of(domainEvent(message), serializer);
            if (!rows.isEmpty() && (rows.size() == MAX_ROWS || bytes + row.bytes() > MAX_BYTES)) {
                inserts.add(new Insert(rows));
                rows = new ArrayList<>();
                bytes = 0;
            }
            rows.add(row);
            bytes += row.bytes();
        }
        if (!rows.isEmpty()) {
            inserts.add(new Insert(rows));
        }
        return inserts;
    }

    /** One multi-row INSERT, run with executeUpdate: the driver escapes each value once, as it writes the statement. */
    record Insert(List<Row> rows) {

        PreparedStatement prepare(Connection connection, EventSchema schema, TimestampWriter timestamps) throws SQLException {
            PreparedStatement statement = connection.prepareStatement("INSERT INTO " + schema.domainEventTable() + " ("
                    + String.join(", ", schema.eventIdentifierColumn(), schema.aggregateIdentifierColumn(), schema.sequenceNumberColumn(),
                    schema.typeColumn(), schema.timestampColumn(), schema.payloadTypeColumn(), schema.payloadRevisionColumn(),
                    schema.payloadColumn(), schema.metaDataColumn())
                    + ") VALUES " + String.join(", ", Collections.nCopies(rows.size(), ROW)));
            int column = 0;
            for (Row row : rows) {
                DomainEventMessage<?> event = row.event();
                statement.setString(++column, event.getIdentifier());
                statement.setString(++column, event.getAggregateIdentifier());
                statement.setLong(++column, event.getSequenceNumber());
                statement.setString(++column, event.getType());
                timestamps.writeTimestamp(statement, ++column, event.getTimestamp());
                statement.setString(++column, row.payloadType());
                statement.setString(++column, row.payloadRevision());
                statement.setString(++column, row.payload());
                statement.setString(++column, row.metaData());
            }
            return statement;
        }
    }

    record Row(DomainEventMessage<?> event, String payloadType, String payloadRevision, String payload, String metaData, long bytes) {

        static Row of(DomainEventMessage<?> event, Serializer serializer) {
            SerializedObject<byte[]> payload = event.serializePayload(serializer, byte[].class);
            SerializedObject<byte[]> metaData = event.serializeMetaData(serializer, byte[].class);
            return new Row(event, payload.getType().getName(), payload.getType().getRevision(),
                    new String(payload.getData(), StandardCharsets.UTF_8), new String(metaData.getData(), StandardCharsets.UTF_8),
                    payload.getData().length + (long) metaData.getData().length);
        }
    }

    /** An event published outside an aggregate is stored as Axon stores it: its own id as the aggregate's, no type, sequence 0. */
    private static DomainEventMessage<?> domainEvent(EventMessage<?> message) {
        if (message instanceof DomainEventMessage<?> event) {
            return event;
        }
        return new GenericDomainEventMessage<>(null, message.getIdentifier(), 0L, message.getPayload(), message.getMetaData(),
                message.getIdentifier(), message.getTimestamp());
    }
}
