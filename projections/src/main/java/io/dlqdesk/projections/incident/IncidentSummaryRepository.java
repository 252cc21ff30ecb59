package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

import java.time.Instant;
import java.util.List;

interface IncidentSummaryRepository extends JpaRepository<IncidentSummaryEntity, String> {

    @Query("select s from IncidentSummaryEntity s where (:topic is null or s.topic = :topic)"
            + " and (:consumerGroup is null or s.consumerGroup = :consumerGroup) and (:status is null or s.status = :status)"
            + " and (:exceptionGroup is null or s.exceptionGroup = :exceptionGroup)"
            + " and (:detectedFrom is null or s.detectedAt >= :detectedFrom) and (:detectedTo is null or s.detectedAt < :detectedTo)")
    Page<IncidentSummaryEntity> search(@Param("topic") String topic, @Param("consumerGroup") String consumerGroup,
                                       @Param("status") IncidentStatus status, @Param("exceptionGroup") String exceptionGroup,
                                       @Param("detectedFrom") Instant detectedFrom, @Param("detectedTo") Instant detectedTo,
                                       Pageable pageable);

    @Query("select distinct s.topic from IncidentSummaryEntity s order by s.topic")
    List<String> findDistinctTopics();

    @Query("select new io.dlqdesk.projections.incident.IncidentCount(s.topic, s.status, count(s)) from IncidentSummaryEntity s"
            + " group by s.topic, s.status order by s.topic, s.status")
    List<IncidentCount> countByTopic();

    @Query("select new io.dlqdesk.projections.incident.IncidentCount(s.consumerGroup, s.status, count(s)) from IncidentSummaryEntity s"
            + " group by s.consumerGroup, s.status order by s.consumerGroup, s.status")
    List<IncidentCount> countByConsumerGroup();

    @Query("select new io.dlqdesk.projections.incident.IncidentCount(cast(s.status as string), s.status, count(s)) from IncidentSummaryEntity s"
            + " group by s.status order by s.status")
    List<IncidentCount> countByStatus();

    @Query("select new io.dlqdesk.projections.incident.IncidentCount(s.exceptionGroup, s.status, count(s)) from IncidentSummaryEntity s"
            + " group by s.exceptionGroup, s.status order by s.exceptionGroup, s.status")
    List<IncidentCount> countByExceptionGroup();

    @Query("select new io.dlqdesk.projections.incident.ExceptionGroupView(s.exceptionGroup, min(s.exceptionClass), min(s.exceptionFingerprint),"
            + " sum(case when s.status = io.dlqdesk.domain.api.IncidentStatus.OPEN then 1 else 0 end), count(s))"
            + " from IncidentSummaryEntity s group by s.exceptionGroup"
            + " order by sum(case when s.status = io.dlqdesk.domain.api.IncidentStatus.OPEN then 1 else 0 end) desc, count(s) desc, s.exceptionGroup")
    List<ExceptionGroupView> exceptionGroups();
}
