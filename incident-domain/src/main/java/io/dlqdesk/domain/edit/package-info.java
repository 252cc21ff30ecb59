/** Audited edit-and-replay: an edited value and headers for one incident's record, proposed, approved by a second person, replayed. */
package io.dlqdesk.domain.edit;
