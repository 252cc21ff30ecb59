/** Whether a failure after a replay is that replay failing again: the checks, the mismatches, and the checks skipped with why. */
package io.dlqdesk.domain.correlation;
