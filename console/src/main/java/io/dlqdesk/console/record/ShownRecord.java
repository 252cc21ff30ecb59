package io.dlqdesk.console.record;

import java.time.Instant;
import java.util.List;

/**
 * A Kafka record as a page shows it: where it was read, its timestamp, key, headers and value. The exception message and
 * stack trace are the DLQ record's own {@code kafka_dlt-exception-*} headers, pulled out to show first (null when absent).
 */
public record ShownRecord(String topic, int partition, long offset, Instant timestamp, ShownBytes key, List<ShownHeader> headers,
                          ShownBytes value, String exceptionClass, String exceptionMessage, String stackTrace) {
}
