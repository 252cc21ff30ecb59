package io.dlqdesk.operations.security;

/**
 * What a principal may do. ADMIN includes OPERATOR, which includes VIEWER; DEPLOYER only reads
 * (a CI credential for rollback readiness and reports); METRICS only scrapes {@code /actuator/prometheus}
 * (the Prometheus server's credential), which ADMIN may read too. APPROVER approves replay jobs that wait for a second
 * person (four-eyes) and edits of a record before its replay, and reads; no other role includes it. EDITOR proposes such
 * edits, and reads; no other role includes it either (an operator replays, but does not rewrite what is replayed).
 */
public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN,
    DEPLOYER,
    METRICS,
    APPROVER,
    EDITOR
}
