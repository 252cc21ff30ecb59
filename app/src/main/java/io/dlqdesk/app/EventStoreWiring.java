package io.dlqdesk.app;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJob;
import io.dlqdesk.ingest.loop.StoredIncidents;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.jdbc.JdbcUtils;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.jdbc.UnitOfWorkAwareConnectionProviderWrapper;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.snapshotting.RevisionSnapshotFilter;
import org.axonframework.eventsourcing.snapshotting.SnapshotFilter;
import org.axonframework.serialization.Revision;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Connection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The event store on Axon's JDBC engine: all events of a unit of work in one batched insert (the driver
 * rewrites it into one multi-row statement), where the JPA engine persisted them one entity at a time.
 * Same tables and columns as before (Flyway's V100), same connection and transaction as JPA (Spring's
 * connection for the current transaction), same stored form: a database written by the JPA engine reads
 * unchanged. Token and saga stores stay on JPA.
 */
@Configuration(proxyBeanMethods = false)
class EventStoreWiring {

    private static final Logger LOG = LoggerFactory.getLogger(EventStoreWiring.class);

    /** Events per read when a processor or an aggregate load fetches from the store. */
    static final int FETCH_BATCH = 1_000;

    @Bean
    EventStorageEngine eventStorageEngine(DataSource dataSource, TransactionManager transactionManager,
                                          @Qualifier("eventSerializer") Serializer eventSerializer,
                                          PersistenceExceptionResolver persistenceExceptionResolver) {
        return engine(dataSource, transactionManager, eventSerializer, persistenceExceptionResolver);
    }

    /**
     * Events are appended by {@link EventAppends} when text stores the same bytes: JSON from Jackson is always UTF-8, and the
     * connection must speak utf8mb4. Otherwise as Axon appends them: bound as bytes, more slowly.
     */
    static NoSnapshotReads engine(DataSource dataSource, TransactionManager transactionManager, Serializer eventSerializer,
                                  PersistenceExceptionResolver persistenceExceptionResolver) {
        ConnectionProvider connections = new UnitOfWorkAwareConnectionProviderWrapper(new SpringDataSourceConnectionProvider(dataSource));
        JdbcEventStorageEngine.Builder builder = JdbcEventStorageEngine.builder()
                .connectionProvider(connections)
                .transactionManager(transactionManager)
                .schema(schema())
                .dataType(byte[].class)
                .snapshotSerializer(snapshotSerializer())
                .snapshotFilter(jobSnapshotsOfThisForm())
                .eventSerializer(eventSerializer)
                .persistenceExceptionResolver(persistenceExceptionResolver)
                .batchSize(FETCH_BATCH)
                .finalAggregateBatchPredicate(EventStoreWiring::lastOfAnAggregate);
        boolean text = eventSerializer instanceof JacksonSerializer && EventAppends.possibleOn(dataSource);
        if (!text) {
            LOG.warn("events are appended with payload and metadata bound as bytes, which costs the driver more CPU per event: the"
                    + " database connection does not speak utf8mb4 (character_set_client, character_set_connection; Connector/J's"
                    + " characterEncoding) or the event serializer is not Jackson's");
        }
        return new NoSnapshotReads(builder, transactionManager, text);
    }

    /**
     * An aggregate's events are read in ranges of {@value #FETCH_BATCH} sequence numbers; a range that is not full is the
     * last, because sequence numbers have no gaps (Axon numbers an aggregate's events one by one, and events are never
     * deleted). Axon's JDBC engine would read on until a range comes back empty: a second query for every aggregate
     * load, half the event store's reads during ingest (every re-failure loads its incident) and in each replay.
     */
    static boolean lastOfAnAggregate(List<? extends DomainEventData<?>> batch) {
        return batch.size() < FETCH_BATCH;
    }

    /** Ingest's one read per batch: which incidents already have their first event (the store's unique key is the index used). */
    @Bean
    StoredIncidents storedIncidents(JdbcTemplate jdbc) {
        EventSchema schema = schema();
        String firstEvents = "SELECT " + schema.aggregateIdentifierColumn() + " FROM " + schema.domainEventTable() + " WHERE "
                + schema.sequenceNumberColumn() + " = 0 AND " + schema.aggregateIdentifierColumn() + " IN (";
        return ids -> {
            if (ids.isEmpty()) {
                return Set.of();
            }
            List<String> found = jdbc.queryForList(firstEvents + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")", String.class,
                    ids.stream().map(IncidentId::value).toArray());
            return found.stream().map(IncidentId::parse).collect(Collectors.toUnmodifiableSet());
        };
    }

    /** The names Flyway's V100 gave Axon's tables (snake_case, as the JPA mapping produced). */
    static EventSchema schema() {
        return EventSchema.builder()
                .eventTable("domain_event_entry")
                .snapshotTable("snapshot_event_entry")
                .globalIndexColumn("global_index")
                .timestampColumn("time_stamp")
                .eventIdentifierColumn("event_identifier")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .typeColumn("type")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .build();
    }

    /**
     * Snapshots are the aggregate's fields as JSON (aggregates have no getters, and the domain no Jackson annotations).
     * Only replay jobs are snapshotted ({@link AxonCommandHandling}); a snapshot that cannot be read is skipped by Axon and
     * the job sourced from its events, which are never deleted. Arrays of bytes are base64 (a job's incident ids).
     */
    static Serializer snapshotSerializer() {
        return JacksonSerializer.builder()
                .objectMapper(JsonMapper.builder()
                        .addModule(new JavaTimeModule())
                        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                        .build())
                .lenientDeserialization()
                .build();
    }

    /**
     * A job's snapshot is read only in the form (revision) the job's class names: an older form would read leniently into
     * a job that forgot its incidents; without a snapshot it is sourced from its events.
     */
    static SnapshotFilter jobSnapshotsOfThisForm() {
        return RevisionSnapshotFilter.builder().type(ReplayJob.class.getSimpleName())
                .revision(ReplayJob.class.getAnnotation(Revision.class).value()).build();
    }

    /**
     * Incidents are never snapshotted (no trigger), so their snapshot table rows do not exist; Axon would still query the
     * table before every load. Skipping that read is safe because events are never deleted: the full stream is always there
     * to source from. A replay job is snapshotted now and then and read from its snapshot (V130 indexes that lookup).
     */
    static final class NoSnapshotReads extends JdbcEventStorageEngine {

        private static final String INCIDENT_PREFIX = "inc-";

        private final TransactionManager transactionManager;
        private final boolean textBound;

        NoSnapshotReads(JdbcEventStorageEngine.Builder builder, TransactionManager transactionManager, boolean textBound) {
            super(builder);
            this.transactionManager = transactionManager;
            this.textBound = textBound;
        }

        /** Whether appends are this engine's own multi-row statements with text-bound payloads ({@link EventAppends}). */
        boolean textBound() {
            return textBound;
        }

        /** As Axon's engine appends (one transaction, its duplicate-key handling), with {@link EventAppends}' statements. */
        @Override
        protected void appendEvents(List<? extends EventMessage<?>> events, Serializer serializer) {
            if (!textBound || events.isEmpty()) {
                super.appendEvents(events, serializer);
                return;
            }
            List<EventAppends.Insert> inserts = EventAppends.inserts(events, serializer);
            transactionManager.executeInTransaction(() -> {
                Connection connection = getConnection();
                try {
                    for (EventAppends.Insert insert : inserts) {
                        JdbcUtils.executeUpdate(connection, c -> insert.prepare(c, schema(), this::writeTimestamp), e -> {
                            handlePersistenceException(e, events.get(0)); // throws the exception Axon's engine would
                            return new IllegalStateException(e);
                        });
                    }
                } finally {
                    JdbcUtils.closeQuietly(connection);
                }
            });
        }

        @Override
        protected Stream<? extends DomainEventData<?>> readSnapshotData(String aggregateIdentifier) {
            return aggregateIdentifier.startsWith(INCIDENT_PREFIX) ? Stream.empty() : super.readSnapshotData(aggregateIdentifier);
        }
    }
}
