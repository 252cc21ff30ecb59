package io.dlqdesk.app;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;

import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the instants of stored events and messages: the form Jackson writes them in ({@code DateTimeFormatter.ISO_INSTANT},
 * e.g. {@code 2026-12-03T14:52:59.032995244Z}) is read by hand, anything else by Jackson's own deserializer, so every
 * input gives the same instant or the same error as before. Every processor reads every event's instants, and
 * {@code DateTimeFormatter}'s general parser took a third of Jackson's time there (JFR over the bench's ingest).
 * Not contextual: a {@code @JsonFormat} on an instant would be ignored; nothing this serializer writes has one.
 */
final class StoredInstants extends StdScalarDeserializer<Instant> {

    private static final int SECONDS_PER_DAY = 86_400;

    private StoredInstants() {
        super(Instant.class);
    }

    /** Register after {@code JavaTimeModule}: the last deserializer registered for a type is the one used. */
    static SimpleModule module() {
        return new SimpleModule("stored-instants").addDeserializer(Instant.class, new StoredInstants());
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        if (parser.hasToken(JsonToken.VALUE_STRING)) {
            Instant read = parse(parser.getText());
            if (read != null) {
                return read;
            }
        }
        return InstantDeserializer.INSTANT.deserialize(parser, context);
    }

    /**
     * {@code uuuu-MM-ddTHH:mm:ss[.f{1,9}]Z} with a four-digit year, or null for anything else (other years, offsets,
     * leap seconds, invalid dates): those are left to Jackson.
     */
    static Instant parse(String text) {
        int length = text.length();
        if (length < 20 || length == 21 || length > 30 || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if ((year | month | day | hour | minute | second) < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (length > 20) {
            if (text.charAt(19) != '.') {
                return null;
            }
            int fraction = digits(text, 20, length - 21);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction;
            for (int scale = length - 21; scale < 9; scale++) {
                nanos *= 10;
            }
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            return null;
        }
        return Instant.ofEpochSecond(epochDay * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal value of {@code count} ASCII digits from {@code from}, or -1 if one is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
