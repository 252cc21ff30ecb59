package io.dlqdesk.parked;

import java.time.Instant;

/**
 * One parked event as the list shows it: a summary, never the event's payload.
 *
 * @param id              the parked event's id (retry and evict name it)
 * @param processingGroup the group that parked it; {@code processor} is the event processor running that group
 * @param sequence        what it holds back: the aggregate (an incident, a replay job), or the event itself
 * @param position        its place in that sequence; the head (lowest) is the one that failed, the others wait behind it
 * @param waitingBehind   it never failed itself: it waits because an earlier event of its sequence is parked
 * @param eventType       the event's class name; {@code eventId} and {@code eventTime} are the event's own
 * @param firstFailure    when it was parked; {@code lastAttempt} when it was last tried (or parked)
 * @param causeType       the exception of its last attempt and its message (cut to 1,023 characters); null when waiting behind
 * @param attempts        how often it was tried: before it was parked, and by each retry since
 */
public record ParkedEventView(String id, String processingGroup, String processor, String sequence, long position, boolean waitingBehind,
                              String eventType, String eventId, Instant eventTime, Instant firstFailure, Instant lastAttempt,
                              String causeType, String causeMessage, int attempts) {
}
