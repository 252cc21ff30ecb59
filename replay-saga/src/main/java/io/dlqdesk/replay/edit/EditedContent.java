package io.dlqdesk.replay.edit;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.edit.ProposeReplayEditCommand;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.Sha256;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What an edit publishes in place of the source record's value and headers: the edited value, and the edited headers or
 * null to keep the source record's. Stored under {@link #hash()}, which the publisher recomputes before it sends: a stored
 * copy changed since its approval is never published.
 */
public record EditedContent(byte[] value, List<Header> headers) {

    public static final int MAX_HEADERS = 100;
    public static final int MAX_HEADER_NAME_LENGTH = 255;
    public static final int MAX_HEADER_VALUE_BYTES = 16_384;
    private static final byte[] DOMAIN = "dlq-desk-edit.v1".getBytes(StandardCharsets.US_ASCII);

    /** One header as the replay carries it; a null value is a header without one. */
    public record Header(String name, byte[] value) {

        public Header {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || name.length() > MAX_HEADER_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
                throw new InvalidValueException("a header name is 1 to " + MAX_HEADER_NAME_LENGTH + " characters without control characters");
            }
            // the desk sets its own correlation headers on every replay; an edit cannot forge them
            if (name.toLowerCase(Locale.ROOT).startsWith("dlq-incident-")) {
                throw new InvalidValueException("header '" + name + "': the dlq-incident- headers are the desk's own; an edit cannot set them");
            }
            if (value != null && value.length > MAX_HEADER_VALUE_BYTES) {
                throw new InvalidValueException("header '" + name + "' is " + value.length + " bytes, more than " + MAX_HEADER_VALUE_BYTES);
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Header header && name.equals(header.name) && Arrays.equals(value, header.value);
        }

        @Override
        public int hashCode() {
            return 31 * name.hashCode() + Arrays.hashCode(value);
        }
    }

    public EditedContent {
        Objects.requireNonNull(value, "value (an edit cannot make a tombstone)");
        if (value.length > ProposeReplayEditCommand.MAX_EDITED_VALUE_BYTES) {
            throw new InvalidValueException("an edited value is at most " + ProposeReplayEditCommand.MAX_EDITED_VALUE_BYTES + " bytes, this one is "
                    + value.length);
        }
        if (headers != null) {
            if (headers.size() > MAX_HEADERS) {
                throw new InvalidValueException("an edit has at most " + MAX_HEADERS + " headers, this one " + headers.size());
            }
            headers = List.copyOf(headers);
        }
    }

    /** The SHA-256 of the edited value: what a re-failure of its replay carries. */
    public PayloadHash valueHash() {
        return PayloadHash.of(value);
    }

    /** The SHA-256 over the value and the headers (whether they are edited, and each name and value in order). */
    public PayloadHash hash() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(DOMAIN);
            writeBytes(out, value);
            byte[] encoded = encodedHeaders();
            writeBytes(out, encoded);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PayloadHash(HexFormat.of().formatHex(Sha256.digest(bytes.toByteArray())));
    }

    /** The headers a replay of this edit carries: its own, or {@code source}'s when it keeps them. */
    public Headers replacing(Headers source) {
        if (headers == null) {
            return source;
        }
        RecordHeaders edited = new RecordHeaders();
        headers.forEach(header -> edited.add(header.name(), header.value()));
        return edited;
    }

    /** The headers as stored: null when the source record's are kept. */
    public byte[] encodedHeaders() {
        if (headers == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(headers.size());
            for (Header header : headers) {
                writeBytes(out, header.name().getBytes(StandardCharsets.UTF_8));
                writeBytes(out, header.value());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The content of a stored value and stored headers. */
    public static EditedContent decode(byte[] value, byte[] encodedHeaders) {
        if (encodedHeaders == null) {
            return new EditedContent(value, null);
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(encodedHeaders))) {
            int count = in.readInt();
            if (count < 0 || count > MAX_HEADERS) {
                throw new IllegalStateException("stored edit headers count " + count);
            }
            List<Header> headers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                headers.add(new Header(new String(readBytes(in), StandardCharsets.UTF_8), readBytes(in)));
            }
            return new EditedContent(value, headers);
        } catch (IOException e) {
            throw new IllegalStateException("stored edit headers are unreadable", e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        if (length > ProposeReplayEditCommand.MAX_EDITED_VALUE_BYTES) {
            throw new IOException("stored length " + length);
        }
        return in.readNBytes(length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EditedContent content && Arrays.equals(value, content.value) && Objects.equals(headers, content.headers);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(value) + Objects.hashCode(headers);
    }

    @Override
    public String toString() {
        return "EditedContent[" + value.length + " bytes, " + (headers == null ? "source headers" : headers.size() + " headers") + "]";
    }
}
