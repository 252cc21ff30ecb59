package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

import java.time.Instant;
import java.util.List;

interface IncidentSummaryRepository extends JpaRepository<IncidentSummaryEntity, String> {

    String FILTER = " where (:topic is null or s.topic = :topic)"
            + " and (:consumerGroup is null or s.consumerGroup = :consumerGroup) and (:status is null or s.status = :status)"
            + " and (:exceptionGroup is null or s.exceptionGroup = :exceptionGroup)"
            + " and (:detectedFrom is null or s.detectedAt >= :detectedFrom) and (:detectedTo is null or s.detectedAt < :detectedTo)"
            + " and (:eventId is null or s.eventId = :eventId) and (:keySha256 is null or s.keySha256 = :keySha256)";

    /** A page without its total (no count query): the total comes from the counts table where it can. */
    @Query("select s from IncidentSummaryEntity s" + FILTER)
    Slice<IncidentSummaryEntity> search(@Param("topic") String topic, @Param("consumerGroup") String consumerGroup,
                                       @Param("status") IncidentStatus status, @Param("exceptionGroup") String exceptionGroup,
                                       @Param("detectedFrom") Instant detectedFrom, @Param("detectedTo") Instant detectedTo,
                                       @Param("eventId") String eventId, @Param("keySha256") String keySha256, Pageable pageable);

    /** Without the eventId and key filters. */
    default Slice<IncidentSummaryEntity> search(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                               Instant detectedFrom, Instant detectedTo, Pageable pageable) {
        return search(topic, consumerGroup, status, exceptionGroup, detectedFrom, detectedTo, null, null, pageable);
    }

    @Query("select count(s) from IncidentSummaryEntity s" + FILTER)
    long count(@Param("topic") String topic, @Param("consumerGroup") String consumerGroup, @Param("status") IncidentStatus status,
               @Param("exceptionGroup") String exceptionGroup, @Param("detectedFrom") Instant detectedFrom,
               @Param("detectedTo") Instant detectedTo, @Param("eventId") String eventId, @Param("keySha256") String keySha256);

    @Query("select distinct s.topic from IncidentSummaryEntity s order by s.topic")
    List<String> findDistinctTopics();
}
