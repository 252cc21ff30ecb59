/** Operators' bulk rebuilds of read models: the events that put them in the audit trail. */
package io.dlqdesk.domain.rebuild;
