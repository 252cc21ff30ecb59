package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentStatus;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** What a filter form sends, read as the API reads its parameters: blank is "no filter", times are UTC. */
final class FormValues {

    private FormValues() {
    }

    static String text(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** An ISO-8601 instant, or a browser's date-time field ({@code 2026-11-30T08:00}), read as UTC. */
    static Instant instant(String name, String value) {
        String text = text(value);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                throw new InvalidValueException("'" + name + "' must be a UTC date and time like 2026-11-30T08:00, was '" + text + "'");
            }
        }
    }

    static IncidentStatus status(String value) {
        String text = text(value);
        if (text == null) {
            return null;
        }
        try {
            return IncidentStatus.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'status' must be one of OPEN, ACKED, RESOLVED, DISCARDED, was '" + text + "'");
        }
    }

    /** As a browser's date-time field shows it (UTC, to the second). */
    static String field(Instant instant) {
        return instant == null ? "" : LocalDateTime.ofInstant(instant, ZoneOffset.UTC).withNano(0).toString();
    }
}
