package io.dlqdesk.projections.incident;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import java.util.List;

interface IncidentSummaryRepository extends JpaRepository<IncidentSummaryEntity, String> {

    @Query("select distinct s.topic from IncidentSummaryEntity s order by s.topic")
    List<String> findDistinctTopics();
}
