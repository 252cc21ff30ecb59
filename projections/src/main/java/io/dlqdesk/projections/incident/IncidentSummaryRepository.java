package io.dlqdesk.projections.incident;

import org.springframework.data.jpa.repository.JpaRepository;

interface IncidentSummaryRepository extends JpaRepository<IncidentSummaryEntity, String> {
}
