package io.dlqdesk.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether a consumer in one group skips a record the desk replayed for another group.
 * <p>
 * A record is skipped only when its last {@value ReplayHeaderNames#TARGET_GROUP} header decodes as
 * UTF-8 and names another group, its last {@value ReplayHeaderNames#SIGNATURE} verifies under one of
 * the {@link ReplayKeys} over this record (topic, partition, key, value) and its replay headers, and,
 * when trusted owners are configured, the (signed) {@value ReplayHeaderNames#OWNER} names one of them.
 * Anything it is not sure about is <b>kept</b>: no header, a header for this group, a header that does
 * not decode, no or a bad signature, a key it does not hold, an owner it does not trust. Dropping a
 * record the consumer needed loses data; keeping one it did not need costs a duplicate, which consumers
 * of a replayed topic already handle. So a filter without keys ({@link ReplayKeys#none()}) skips nothing.
 * <p>
 * The signature covers the key and value bytes. The filter gets them from a {@code byte[]}, {@code String}
 * (UTF-8, as Kafka's StringSerializer writes it), {@code ByteBuffer} or {@code Bytes} key or value, or
 * null; for other types (a JSON or Avro object) it cannot verify and keeps the record
 * ({@link Decision#KEEP_UNVERIFIABLE_RECORD}): filter before such a deserializer, on byte[] records.
 * <p>
 * Immutable and thread-safe.
 */
public final class TargetGroupFilter {

    private final String groupId;
    private final ReplayKeys keys;
    private final TrustedOwners trustedOwners;

    /**
     * @param groupId       the consumer's own group id
     * @param keys          the keys whose signatures are accepted; none: nothing is skipped
     * @param trustedOwners the desks whose (signed) replays for other groups are skipped
     */
    public TargetGroupFilter(String groupId, ReplayKeys keys, TrustedOwners trustedOwners) {
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank");
        }
        this.groupId = groupId;
        this.keys = Objects.requireNonNull(keys, "keys");
        this.trustedOwners = Objects.requireNonNull(trustedOwners, "trustedOwners");
    }

    /** Skips replays for other groups signed under one of the keys, whichever desk replayed them. */
    public static TargetGroupFilter forGroup(String groupId, ReplayKeys keys) {
        return new TargetGroupFilter(groupId, keys, TrustedOwners.any());
    }

    public String groupId() {
        return groupId;
    }

    public Decision decide(ConsumerRecord<?, ?> record) {
        Headers headers = record.headers();
        Header targetHeader = headers.lastHeader(ReplayHeaderNames.TARGET_GROUP);
        if (targetHeader == null || targetHeader.value() == null) {
            return Decision.KEEP_NO_TARGET_GROUP;
        }
        Optional<String> targetGroup = utf8(targetHeader.value());
        if (targetGroup.isEmpty() || targetGroup.get().isBlank()) {
            return Decision.KEEP_UNREADABLE_TARGET_GROUP;
        }
        if (targetGroup.get().equals(groupId)) {
            return Decision.KEEP_OWN_GROUP;
        }
        Decision signature = verify(record);
        if (signature != null) {
            return signature;
        }
        // checked after the signature: only then is the owner the desk's word
        if (!trustedOwners.trusts(owner(headers).orElse(null))) {
            return Decision.KEEP_UNTRUSTED_OWNER;
        }
        return Decision.SKIP_OTHER_GROUP;
    }

    public boolean skips(ConsumerRecord<?, ?> record) {
        return decide(record).skip();
    }

    /** Null when the signature verifies, else why the record is kept. */
    private Decision verify(ConsumerRecord<?, ?> record) {
        Header header = record.headers().lastHeader(ReplayHeaderNames.SIGNATURE);
        if (header == null || header.value() == null) {
            return Decision.KEEP_UNSIGNED;
        }
        Optional<ReplaySignature.Parsed> signature = ReplaySignature.parse(header.value());
        if (signature.isEmpty()) {
            return Decision.KEEP_BAD_SIGNATURE;
        }
        if (!keys.holds(signature.get().keyId())) {
            return Decision.KEEP_UNKNOWN_KEY;
        }
        if (!bytesKnown(record.key()) || !bytesKnown(record.value())) {
            return Decision.KEEP_UNVERIFIABLE_RECORD;
        }
        boolean verifies = keys.verifies(signature.get(), record.headers(), record.topic(), record.partition(),
                bytesOf(record.key()), bytesOf(record.value()));
        return verifies ? null : Decision.KEEP_BAD_SIGNATURE;
    }

    /** The group a replay is for, when its header decodes. */
    static Optional<String> targetGroup(Headers headers) {
        Header header = headers.lastHeader(ReplayHeaderNames.TARGET_GROUP);
        return header == null || header.value() == null ? Optional.empty() : utf8(header.value());
    }

    private static Optional<String> owner(Headers headers) {
        Header header = headers.lastHeader(ReplayHeaderNames.OWNER);
        return header == null || header.value() == null ? Optional.empty() : utf8(header.value());
    }

    private static boolean bytesKnown(Object data) {
        return data == null || data instanceof byte[] || data instanceof String || data instanceof ByteBuffer || data instanceof Bytes;
    }

    private static byte[] bytesOf(Object data) {
        if (data == null || data instanceof byte[]) {
            return (byte[]) data;
        }
        if (data instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (data instanceof Bytes bytes) {
            return bytes.get();
        }
        ByteBuffer buffer = ((ByteBuffer) data).duplicate(); // the caller's position stays where it is
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    // String(bytes, UTF_8) would replace bad bytes with U+FFFD and compare as some other group
    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "TargetGroupFilter[group=" + groupId + ", keys=" + keys.ids() + ", trustedOwners=" + trustedOwners + "]";
    }
}
