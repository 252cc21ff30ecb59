/** The failed Kafka record as the desk knows it: where it is, its key, eventId, timestamp, value hash and exception, each bounded. */
package io.dlqdesk.domain.record;
