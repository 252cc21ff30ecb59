package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

import java.util.List;

interface IncidentSummaryRepository extends JpaRepository<IncidentSummaryEntity, String> {

    @Query("select s from IncidentSummaryEntity s where (:topic is null or s.topic = :topic)"
            + " and (:consumerGroup is null or s.consumerGroup = :consumerGroup) and (:status is null or s.status = :status)")
    Page<IncidentSummaryEntity> search(@Param("topic") String topic, @Param("consumerGroup") String consumerGroup,
                                       @Param("status") IncidentStatus status, Pageable pageable);

    @Query("select distinct s.topic from IncidentSummaryEntity s order by s.topic")
    List<String> findDistinctTopics();
}
