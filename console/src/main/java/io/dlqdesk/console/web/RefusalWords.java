package io.dlqdesk.console.web;

import io.dlqdesk.domain.replay.ReplayRefusal;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Every replay refusal code in words for the operator who asked, with what to do about it where there is something. */
public final class RefusalWords {

    private static final Map<ReplayRefusal, String> WORDS = new EnumMap<>(ReplayRefusal.class);

    static {
        WORDS.put(ReplayRefusal.EVENT_ID_UNKNOWN, "The record has no eventId, so consumers could not tell a replay from a new record.");
        WORDS.put(ReplayRefusal.FAILED_GROUP_UNKNOWN, "The consumer group that failed is not known.");
        WORDS.put(ReplayRefusal.LOCATION_UNKNOWN, "The DLQ record did not say where the original record is.");
        WORDS.put(ReplayRefusal.LOCATION_INVALID,
                "The original topic or partition does not exist, or the offset is no longer in the log (deleted by retention).");
        WORDS.put(ReplayRefusal.TOPIC_NOT_ALLOWED, "The replay policy (dlqdesk.replay.allowed-topics) does not allow replays to this topic.");
        WORDS.put(ReplayRefusal.ORIGINAL_TIMESTAMP_UNKNOWN, "The original timestamp is not known, so there is no replay deadline.");
        WORDS.put(ReplayRefusal.AFTER_DEADLINE, "The replay deadline (original timestamp + replay window) has passed.");
        WORDS.put(ReplayRefusal.SOURCE_RECORD_NOT_FOUND, "Nothing could be read at the original location.");
        WORDS.put(ReplayRefusal.SOURCE_LOCATION_MISMATCH, "The record was read somewhere other than the recorded location.");
        WORDS.put(ReplayRefusal.SOURCE_OFFSET_MISMATCH,
                "A different offset came back: the original record was compacted away and the next one returned.");
        WORDS.put(ReplayRefusal.SOURCE_KEY_MISMATCH, "The record at that offset has a different key than the one that failed.");
        WORDS.put(ReplayRefusal.SOURCE_EVENT_ID_MISMATCH, "The record at that offset has a different eventId than the one that failed.");
        WORDS.put(ReplayRefusal.SOURCE_VALUE_HASH_MISMATCH, "The record at that offset has different bytes than the one that failed.");
        WORDS.put(ReplayRefusal.SOURCE_TOMBSTONE, "The record is a tombstone (no value): it is never replayed.");
        WORDS.put(ReplayRefusal.INCIDENT_CLOSED, "The incident is resolved or discarded.");
        WORDS.put(ReplayRefusal.REPLAY_ALREADY_REQUESTED, "A replay of this incident is still waiting for its publish result.");
        WORDS.put(ReplayRefusal.ALREADY_PUBLISHED, "The last replay was published and has not failed again since.");
        WORDS.put(ReplayRefusal.PUBLISH_UNKNOWN, "The last replay was marked PUBLISH_UNKNOWN: no replay from it.");
        WORDS.put(ReplayRefusal.REPLAY_SWITCH_OFF, "The replay switch is off: an admin turns it on on the Replay switch page.");
        WORDS.put(ReplayRefusal.MAX_ATTEMPTS_REACHED, "The incident has had the most replay attempts allowed (dlqdesk.replay.max-attempts).");
        WORDS.put(ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH,
                "The record at that offset carries another timestamp than its DLQ record said; the desk trusts the record, not the header.");
        WORDS.put(ReplayRefusal.SOURCE_RETENTION_PASSED, "The record's timestamp plus its topic's retention has passed: the broker may delete it.");
        WORDS.put(ReplayRefusal.STALE_KEY, "The consumer group has already processed a newer record with the same key: replaying this one "
                + "would write old data over newer state. Tick \"replay over a stale key\" and say why, if that is what you want.");
        WORDS.put(ReplayRefusal.KEY_FRESHNESS_UNKNOWN, "The stale-key check could not tell whether a newer record with the same key was "
                + "already processed (too many records to read, or the broker did not answer). Override it only if you know.");
        WORDS.put(ReplayRefusal.EDIT_UNKNOWN, "The incident has no edit with that number.");
        WORDS.put(ReplayRefusal.EDIT_NOT_APPROVED, "The edit has not been approved yet: a second person with the APPROVER role approves it "
                + "(its proposer cannot) before it can be replayed.");
    }

    private RefusalWords() {
    }

    /** One refusal, in words and with its code. */
    public record Refusal(String code, String words) {
    }

    public static String of(ReplayRefusal refusal) {
        return WORDS.getOrDefault(refusal, refusal.name());
    }

    public static List<Refusal> of(List<ReplayRefusal> refusals) {
        return refusals.stream().map(refusal -> new Refusal(refusal.name(), of(refusal))).toList();
    }
}
