package io.dlqdesk.consumer;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

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
 * UTF-8 and names another group, and, when trusted owners are configured, its last
 * {@value ReplayHeaderNames#OWNER} header names one of them. Anything it is not sure about is
 * <b>kept</b>: no header, a header for this group, a header that does not decode, an owner it does
 * not trust. Dropping a record the consumer needed loses data; keeping one it did not need costs a
 * duplicate, which consumers of a replayed topic already handle.
 * <p>
 * Immutable and thread-safe.
 */
public final class TargetGroupFilter {

    private final String groupId;
    private final TrustedOwners trustedOwners;

    /**
     * @param groupId       the consumer's own group id
     * @param trustedOwners the desks whose replays for other groups are skipped
     */
    public TargetGroupFilter(String groupId, TrustedOwners trustedOwners) {
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank");
        }
        this.groupId = groupId;
        this.trustedOwners = Objects.requireNonNull(trustedOwners, "trustedOwners");
    }

    /** Skips replays for other groups whoever replayed them. */
    public static TargetGroupFilter forGroup(String groupId) {
        return new TargetGroupFilter(groupId, TrustedOwners.any());
    }

    public String groupId() {
        return groupId;
    }

    public Decision decide(Headers headers) {
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
        if (!trustedOwners.trusts(owner(headers).orElse(null))) {
            return Decision.KEEP_UNTRUSTED_OWNER;
        }
        return Decision.SKIP_OTHER_GROUP;
    }

    public boolean skips(Headers headers) {
        return decide(headers).skip();
    }

    /** The group a replay is for, when its header decodes; for counting skipped records by it. */
    static Optional<String> targetGroup(Headers headers) {
        Header header = headers.lastHeader(ReplayHeaderNames.TARGET_GROUP);
        return header == null || header.value() == null ? Optional.empty() : utf8(header.value());
    }

    private static Optional<String> owner(Headers headers) {
        Header header = headers.lastHeader(ReplayHeaderNames.OWNER);
        return header == null || header.value() == null ? Optional.empty() : utf8(header.value());
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
        return "TargetGroupFilter[group=" + groupId + ", trustedOwners=" + trustedOwners + "]";
    }
}
