/** Bulk replay: the replay job aggregate, its limits, status and commands. */
package io.dlqdesk.domain.job;
