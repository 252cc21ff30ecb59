package io.dlqdesk.record;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.record.EventId;
import org.apache.kafka.common.header.Headers;


/**
 * Finds the eventId of a failed record, from a top-level JSON field of the value for the topics
 * configured so, else from the eventId header. Anything unusable means "no eventId", never an error:
 * the incident still opens, it just cannot be replayed. Ingest reads a failure's eventId with it, and
 * replay the source record's, so that both read it the same way.
 */
public final class EventIdExtractor {

    // a longer header cannot decode to an id EventId accepts: skip decoding it at all
    private static final int MAX_HEADER_BYTES = EventId.MAX_LENGTH * 4;

    // reading only; a value with trailing garbage is not JSON
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final EventIdSource source;

    public EventIdExtractor(EventIdSource source) {
        this.source = source;
    }

    /**
     * The eventId of a record of {@code originalTopic} (null when unknown: then only the header is
     * read) with these headers and value; null when it has none usable.
     */
    public EventId extract(String originalTopic, Headers headers, byte[] value) {
        return extract(originalTopic, new DltHeaderReader(headers), value);
    }

    public EventId extract(String originalTopic, DltHeaderReader headers, byte[] value) {
        String field = originalTopic == null ? null : source.jsonFieldByTopic().get(originalTopic);
        String text = field != null ? fromJson(value, field) : fromHeader(headers.bytes(source.header()));
        return toEventId(text);
    }

    private static String fromHeader(byte[] bytes) {
        if (bytes == null || bytes.length > MAX_HEADER_BYTES) {
            return null;
        }
        return DltHeaderReader.strictUtf8(bytes); // an id that is not valid text could never match on replay
    }

    private static String fromJson(byte[] value, String field) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(value).get(field);
            if (node == null) {
                return null;
            }
            // a float's text is not stable across serializers: only strings and integers are ids
            return node.isTextual() || node.isIntegralNumber() ? node.asText() : null;
        } catch (Exception e) { // not JSON, too deep, too large: no eventId
            return null;
        }
    }

    private static EventId toEventId(String text) {
        if (text == null) {
            return null;
        }
        try {
            return new EventId(text);
        } catch (IllegalArgumentException e) { // blank, too long, control characters
            return null;
        }
    }
}
