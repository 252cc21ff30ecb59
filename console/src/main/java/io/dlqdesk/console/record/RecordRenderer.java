package io.dlqdesk.console.record;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.dlqdesk.operations.record.HeaderRedaction;
import io.dlqdesk.record.DltHeaders;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns record bytes into what a page shows, byte-safe: valid UTF-8 text as text (pretty JSON when it parses), anything
 * else as hex; at most {@code limit} bytes of each, the full size always said. Never builds markup: the page escapes
 * every string it is given. Header values named in {@code dlqdesk.security.redacted-headers} are withheld.
 */
public final class RecordRenderer {

    private static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE).build();
    private static final int HEX_LINE = 16;

    private final int limit;
    private final HeaderRedaction redaction;

    public RecordRenderer(int limit, HeaderRedaction redaction) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1 byte");
        }
        this.limit = limit;
        this.redaction = redaction;
    }

    /** The header values this renderer withholds (same rule as the API's). */
    public boolean withheld(String headerName) {
        return redaction.isDenied(headerName);
    }

    /** Of a whole value (or key): cut here when longer than the limit. */
    public ShownBytes show(byte[] bytes) {
        if (bytes == null) {
            return ShownBytes.NONE;
        }
        return show(bytes, bytes.length);
    }

    /**
     * Of the first bytes of something of {@code size} bytes (the database may have cut it already). Pretty JSON only for
     * a whole value: a cut one is shown as the text it starts with.
     */
    public ShownBytes show(byte[] start, long size) {
        if (start == null) {
            return ShownBytes.NONE;
        }
        int shown = (int) Math.min(Math.min(start.length, size), limit);
        boolean truncated = size > shown;
        byte[] bytes = shown == start.length ? start : java.util.Arrays.copyOf(start, shown);
        String text = truncated ? textPrefix(bytes) : text(bytes);
        if (text == null) {
            return new ShownBytes(ShownBytes.Kind.HEX, hex(bytes), size, truncated);
        }
        if (!truncated) {
            String pretty = prettyJson(text);
            if (pretty != null) {
                return new ShownBytes(ShownBytes.Kind.JSON, pretty, size, false);
            }
        }
        return new ShownBytes(ShownBytes.Kind.TEXT, text, size, truncated);
    }

    public ShownHeader header(String name, byte[] value) {
        String shownName = name == null ? "" : name;
        if (redaction.isDenied(shownName)) {
            return new ShownHeader(shownName, ShownBytes.NONE, true);
        }
        return new ShownHeader(shownName, show(value), false);
    }

    /** A DLQ record read from Kafka. */
    public ShownRecord record(String topic, int partition, long offset, long timestamp, byte[] key, List<Header> headers, byte[] value) {
        List<ShownHeader> shown = new ArrayList<>();
        String exceptionClass = null;
        String cause = null;
        String message = null;
        String stackTrace = null;
        for (Header header : headers) {
            shown.add(header(header.name(), header.value()));
            if (redaction.isDenied(header.name())) {
                continue;
            }
            switch (header.name()) {
                case DltHeaders.EXCEPTION_FQCN -> exceptionClass = textOrNull(header.value());
                case DltHeaders.EXCEPTION_CAUSE_FQCN -> cause = textOrNull(header.value());
                case DltHeaders.EXCEPTION_MESSAGE -> message = textOrNull(header.value());
                case DltHeaders.EXCEPTION_STACKTRACE -> stackTrace = textOrNull(header.value());
                default -> { }
            }
        }
        return new ShownRecord(topic, partition, offset, timestamp < 0 ? null : Instant.ofEpochMilli(timestamp), show(key), shown,
                show(value), cause != null ? cause : exceptionClass, message, stackTrace);
    }

    /** A header as it came: name and raw value. */
    public record Header(String name, byte[] value) {
    }

    /** Text up to the limit (a long stack trace is cut like a value), or null when the bytes are not text. */
    private String textOrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        ShownBytes shown = show(bytes);
        return shown.kind() == ShownBytes.Kind.TEXT || shown.kind() == ShownBytes.Kind.JSON
                ? shown.shown() + (shown.truncated() ? "\n… (" + shown.size() + " bytes in all)" : "") : null;
    }

    /** Strict UTF-8; null when not valid or when it holds control characters other than tab, CR and LF. */
    static String text(byte[] bytes) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            String text = chars.toString();
            return printable(text) ? text : null;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The cut may split a character at the end: up to three trailing bytes of it are left out. */
    private static String textPrefix(byte[] bytes) {
        for (int drop = 0; drop <= Math.min(3, bytes.length); drop++) {
            String text = text(java.util.Arrays.copyOf(bytes, bytes.length - drop));
            if (text != null) {
                return text;
            }
        }
        return null;
    }

    private static boolean printable(String text) {
        return text.chars().noneMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }

    private static String prettyJson(String text) {
        String trimmed = text.strip();
        if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) {
            return null; // a bare number or string is shown as the text it is
        }
        try (JsonParser parser = JSON.createParser(trimmed)) {
            JsonNode tree = JSON.readTree(parser);
            if (tree == null || parser.nextToken() != null) {
                return null; // trailing content: not one JSON document
            }
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        } catch (Exception e) {
            return null;
        }
    }

    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 3 + bytes.length / HEX_LINE * 20);
        for (int line = 0; line < bytes.length; line += HEX_LINE) {
            out.append(String.format(java.util.Locale.ROOT, "%08x ", line));
            StringBuilder ascii = new StringBuilder();
            for (int i = line; i < Math.min(bytes.length, line + HEX_LINE); i++) {
                out.append(String.format(java.util.Locale.ROOT, " %02x", bytes[i] & 0xff));
                ascii.append(bytes[i] >= 0x20 && bytes[i] < 0x7f ? (char) bytes[i] : '.');
            }
            out.append(" ".repeat(3 * (HEX_LINE - Math.min(HEX_LINE, bytes.length - line)))).append("  |").append(ascii).append("|\n");
        }
        return out.toString();
    }
}
