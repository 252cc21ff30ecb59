package io.dlqdesk.parked;

import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Readiness of this instance's event processors: DOWN, naming them, when a segment's stored token has not moved for
 * longer than {@code stallTimeout} while the event store holds events past it. Judged are the segments of processors
 * running here that this instance holds, and those nobody holds: a processor whose batch keeps failing releases its
 * claim and backs off (up to a minute), so its segment is held for milliseconds at a time and belongs to no instance
 * in between. A segment another instance holds is that instance's to report. A parked event is not a stall (the
 * segment moves on); a handler or a database that keeps failing, a full dead-letter queue, or a broker that keeps
 * refusing the events topic is.
 */
public final class ProcessorStalls implements HealthIndicator {

    /** A segment's token as stored: its position (0, below the first global index, before its first event) and whether an instance holds its claim. */
    public record StoredSegment(String processor, int segment, long position, boolean claimed) {
    }

    private record Seen(long position, Instant since) {
    }

    private final Supplier<Map<String, Set<Integer>>> heldHere;
    private final Supplier<List<StoredSegment>> stored;
    private final LongSupplier eventStoreHead;
    private final Duration stallTimeout;
    private final Clock clock;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    /**
     * @param heldHere       the streaming processors running on this instance, each with the segments it holds
     * @param stored         every segment's stored token, read within a bound; it may throw
     * @param eventStoreHead the newest stored event's global index (-1 when none), read within a bound; it may throw
     */
    public ProcessorStalls(Supplier<Map<String, Set<Integer>>> heldHere, Supplier<List<StoredSegment>> stored, LongSupplier eventStoreHead,
                           Duration stallTimeout, Clock clock) {
        this.heldHere = heldHere;
        this.stored = stored;
        this.eventStoreHead = eventStoreHead;
        this.stallTimeout = stallTimeout;
        this.clock = clock;
    }

    /** The streaming processors of {@code processing} running on this instance, with the segments each holds here. */
    public static Map<String, Set<Integer>> heldHere(EventProcessingConfiguration processing) {
        Map<String, Set<Integer>> held = new TreeMap<>();
        for (EventProcessor processor : processing.eventProcessors().values()) {
            if (processor instanceof StreamingEventProcessor streaming && streaming.isRunning()) {
                held.put(processor.getName(), Set.copyOf(streaming.processingStatus().keySet()));
            }
        }
        return held;
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        long head;
        List<StoredSegment> segments;
        try {
            head = eventStoreHead.getAsLong();
            segments = stored.get();
        } catch (RuntimeException e) { // the database's outage is the ingest's readiness to report; this one cannot judge
            return Health.unknown().withDetail("tokens", "could not be read: " + e.getClass().getSimpleName()).build();
        }
        Map<String, Set<Integer>> held = heldHere.get();
        Map<String, Object> stalled = new TreeMap<>();
        Set<String> present = new HashSet<>();
        int judged = 0;
        for (StoredSegment segment : segments) {
            Set<Integer> mine = held.get(segment.processor());
            if (mine == null) {
                continue; // not running here
            }
            String key = segment.processor() + "/" + segment.segment();
            present.add(key);
            Seen was = seen.compute(key, (name, old) -> old != null && old.position() == segment.position()
                    ? old : new Seen(segment.position(), now));
            boolean heldByMe = mine.contains(segment.segment());
            if (!heldByMe && segment.claimed()) {
                continue; // another instance's
            }
            judged++;
            Duration unchanged = Duration.between(was.since(), now);
            if (segment.position() < head && unchanged.compareTo(stallTimeout) > 0) {
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("position", segment.position());
                detail.put("eventStoreHead", head);
                detail.put("unchangedForSeconds", unchanged.toSeconds());
                detail.put("claim", heldByMe ? "this instance" : "none (released: its processor backs off after failing)");
                stalled.put(key, detail);
            }
        }
        seen.keySet().retainAll(present);
        Health.Builder health = stalled.isEmpty() ? Health.up() : Health.down();
        return health.withDetail("segments", judged).withDetail("eventStoreHead", head)
                .withDetail("stallTimeoutSeconds", stallTimeout.toSeconds()).withDetail("stalled", stalled).build();
    }
}
