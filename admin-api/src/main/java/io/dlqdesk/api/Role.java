package io.dlqdesk.api;

/**
 * What a principal may do. ADMIN includes OPERATOR, which includes VIEWER; DEPLOYER only reads
 * (a CI credential for rollback readiness and reports).
 */
public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN,
    DEPLOYER
}
