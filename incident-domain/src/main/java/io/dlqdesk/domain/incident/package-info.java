/** An incident's identity, status and lifecycle commands (open, acknowledge, resolve, discard), and the operator action each records. */
package io.dlqdesk.domain.incident;
