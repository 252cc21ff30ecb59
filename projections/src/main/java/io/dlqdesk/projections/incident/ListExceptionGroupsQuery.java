package io.dlqdesk.projections.incident;

/** Every exception group with its incident counts, most open incidents first. Answered with a list of {@link ExceptionGroupView}. */
public record ListExceptionGroupsQuery() {
}
