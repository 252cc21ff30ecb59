/** Replaying an incident's record: the conditions and their refusals, the replay headers, and the publish result of an attempt. */
package io.dlqdesk.domain.replay;
