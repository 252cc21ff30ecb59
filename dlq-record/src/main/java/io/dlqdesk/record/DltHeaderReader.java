package io.dlqdesk.record;

import io.dlqdesk.domain.record.BoundedText;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Decodes single headers of a DLQ record. Always reads the last occurrence of a name: the original
 * record's headers are copied ahead of the ones the recoverer adds. A header that cannot be trusted
 * raises {@link BadHeaderException}, whose message is the quarantine reason.
 */
public final class DltHeaderReader {

    // Kafka's topic rule (as RecordLocation's); Kafka also forbids "." and "..".
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final int MAX_ECHO = 100;
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,19}");

    private final Headers headers;

    public DltHeaderReader(Headers headers) {
        this.headers = headers;
    }

    public boolean has(String name) {
        return headers.lastHeader(name) != null;
    }

    /** The value bytes, or null when the header is absent or has a null value. */
    public byte[] bytes(String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : header.value();
    }

    public String requiredTopic(String name) throws BadHeaderException {
        String topic = requiredText(name);
        if (!isTopicName(topic)) {
            throw new BadHeaderException(name, "not a legal Kafka topic name (" + topic.length() + " characters): " + echo(topic));
        }
        return topic;
    }

    /** Whether Kafka would take {@code name} as a topic's name. */
    public static boolean isTopicName(String name) {
        return name != null && TOPIC.matcher(name).matches() && !name.equals(".") && !name.equals("..");
    }

    public String requiredText(String name) throws BadHeaderException {
        String text = strictUtf8(required(name));
        if (text == null) {
            throw new BadHeaderException(name, "not valid UTF-8");
        }
        if (text.isBlank()) {
            throw new BadHeaderException(name, "blank");
        }
        return text;
    }

    /** Text kept whole or not at all: at most {@code max} characters, none of them a control character. */
    public String requiredIdentifier(String name, int max) throws BadHeaderException {
        byte[] value = required(name);
        if (value.length > 4 * max) { // no need to decode what cannot fit
            throw new BadHeaderException(name, value.length + " bytes, longer than " + max + " characters can be");
        }
        String text = requiredText(name);
        String problem = BoundedText.identifierProblem(text, max);
        if (problem != null) {
            throw new BadHeaderException(name, problem);
        }
        return text;
    }

    public int requiredNonNegativeInt(String name) throws BadHeaderException {
        return (int) requireNonNegative(name, ofLength(name, required(name), Integer.BYTES).getInt());
    }

    public long requiredNonNegativeLong(String name) throws BadHeaderException {
        return requireNonNegative(name, ofLength(name, required(name), Long.BYTES).getLong());
    }

    /** A number written as decimal text (Kafka Connect, Kafka Streams): digits only, at most an int, not negative. */
    public int requiredDecimalInt(String name) throws BadHeaderException {
        long number = requiredDecimal(name);
        if (number > Integer.MAX_VALUE) {
            throw new BadHeaderException(name, "larger than a partition number can be: " + number);
        }
        return (int) number;
    }

    /** A number written as decimal text: digits only (an optional leading minus is read, then refused), not negative. */
    public long requiredDecimalLong(String name) throws BadHeaderException {
        return requiredDecimal(name);
    }

    private long requiredDecimal(String name) throws BadHeaderException {
        byte[] value = required(name);
        if (value.length == 0 || value.length > 20) { // 19 digits and a sign: no need to look further
            throw new BadHeaderException(name, "not a decimal number (" + value.length + " bytes)");
        }
        String text = new String(value, StandardCharsets.US_ASCII);
        if (!DECIMAL.matcher(text).matches()) {
            throw new BadHeaderException(name, "not a decimal number: " + echo(printable(text)));
        }
        long number;
        try {
            number = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BadHeaderException(name, "out of range: " + echo(text));
        }
        return requireNonNegative(name, number);
    }

    private static String printable(String text) {
        return text.replaceAll("\\p{Cntrl}", "?");
    }

    /** Absent → null; present but not a non-negative 8-byte long → bad (a corrupt header is not "absent"). */
    public Long optionalNonNegativeLong(String name) throws BadHeaderException {
        if (!has(name)) {
            return null;
        }
        byte[] value = bytes(name);
        if (value == null) {
            throw new BadHeaderException(name, "present without a value");
        }
        return requireNonNegative(name, ofLength(name, value, Long.BYTES).getLong());
    }

    /** Text that must never fail: bad UTF-8 becomes U+FFFD; only the first {@code maxBytes} are decoded. */
    public String lenientText(String name, int maxBytes) {
        byte[] value = bytes(name);
        if (value == null) {
            return null;
        }
        return new String(value, 0, Math.min(value.length, maxBytes), StandardCharsets.UTF_8);
    }

    /** UTF-8 text, or null when the bytes are not valid UTF-8. */
    public static String strictUtf8(byte[] value) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private byte[] required(String name) throws BadHeaderException {
        if (!has(name)) {
            throw new BadHeaderException(name, "missing");
        }
        byte[] value = bytes(name);
        if (value == null) {
            throw new BadHeaderException(name, "present without a value");
        }
        return value;
    }

    private static ByteBuffer ofLength(String name, byte[] value, int length) throws BadHeaderException {
        if (value.length != length) {
            throw new BadHeaderException(name, "expected " + length + " bytes, got " + value.length);
        }
        return ByteBuffer.wrap(value); // big-endian, as Spring writes it
    }

    private static long requireNonNegative(String name, long number) throws BadHeaderException {
        if (number < 0) {
            throw new BadHeaderException(name, "must be >= 0, was " + number);
        }
        return number;
    }

    // the reason is stored and shown: never echo an unbounded attacker-sized value
    private static String echo(String value) {
        return "'" + (value.length() <= MAX_ECHO ? value : value.substring(0, MAX_ECHO) + "…") + "'";
    }
}
