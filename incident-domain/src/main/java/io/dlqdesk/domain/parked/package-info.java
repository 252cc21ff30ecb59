/** Events about events a processor parked (parked, retried, evicted): the audit of what admins did with them. */
package io.dlqdesk.domain.parked;
