package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.BoundedText;

/**
 * The headers an in-house DLQ writer puts its facts in. {@code topic}, {@code partition} and {@code offset} name the
 * source record and are required; {@code consumerGroup} is required unless the DLQ topic's setting names the group. The
 * others may be left out: without exception headers the incident has no exception class. Numbers are decimal text or, with {@code numbers:
 * binary}, big-endian 4-byte (partition) and 8-byte (offset, timestamp) values as Spring Kafka writes them.
 * <p>
 * Without a {@code timestamp} header the failure has no source timestamp (no replay deadline: replay refused), unless
 * {@code recordTimestampIsSource} says the writer gives the DLQ record the source record's timestamp, as Kafka's own
 * writers do; a producer that leaves the timestamp unset stamps the time of the dead-lettering instead.
 */
public record HeaderMapping(String topic, String partition, String offset, String consumerGroup, String timestamp,
                            String exceptionClass, String exceptionMessage, String stackTrace, Numbers numbers,
                            boolean recordTimestampIsSource) {

    /** How the mapped headers write numbers. */
    public enum Numbers { TEXT, BINARY }

    private static final int MAX_NAME_LENGTH = 255;

    public HeaderMapping {
        requireName("headers.topic", topic, true);
        requireName("headers.partition", partition, true);
        requireName("headers.offset", offset, true);
        requireName("headers.consumer-group", consumerGroup, false);
        requireName("headers.timestamp", timestamp, false);
        requireName("headers.exception-class", exceptionClass, false);
        requireName("headers.exception-message", exceptionMessage, false);
        requireName("headers.stack-trace", stackTrace, false);
        numbers = numbers == null ? Numbers.TEXT : numbers;
        if (timestamp != null && recordTimestampIsSource) {
            throw new IllegalArgumentException("headers.timestamp and headers.record-timestamp-is-source: the source timestamp comes from"
                    + " one or the other");
        }
    }

    private static void requireName(String setting, String name, boolean required) {
        if (name == null) {
            if (required) {
                throw new IllegalArgumentException(setting + ": required for the custom dialect (the header that holds it)");
            }
            return;
        }
        String problem = BoundedText.identifierProblem(name, MAX_NAME_LENGTH);
        if (problem != null) {
            throw new IllegalArgumentException(setting + ": " + problem);
        }
    }
}
