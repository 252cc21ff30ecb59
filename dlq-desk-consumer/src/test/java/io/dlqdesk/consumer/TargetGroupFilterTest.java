package io.dlqdesk.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.dlqdesk.consumer.TestReplays.KEY_1;
import static io.dlqdesk.consumer.TestReplays.SECRET_1;
import static io.dlqdesk.consumer.TestReplays.SECRET_2;
import static io.dlqdesk.consumer.TestReplays.copy;
import static io.dlqdesk.consumer.TestReplays.headers;
import static io.dlqdesk.consumer.TestReplays.record;
import static io.dlqdesk.consumer.TestReplays.replay;
import static io.dlqdesk.consumer.TestReplays.signed;
import static io.dlqdesk.consumer.TestReplays.signedReplay;
import static io.dlqdesk.consumer.TestReplays.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each rule that skips is paired with the nearest record that must be kept. */
class TargetGroupFilterTest {

    private static final TargetGroupFilter SHIPPING = TargetGroupFilter.forGroup("shipping", KEY_1);
    private static final TargetGroupFilter SHIPPING_TRUSTING_PROD = new TargetGroupFilter("shipping", KEY_1, TrustedOwners.of("desk-prod"));

    @Test
    void aSignedReplayForAnotherGroupIsSkipped() {
        assertThat(SHIPPING.decide(signedReplay("billing", "desk-prod"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING.skips(signedReplay("billing", "desk-prod"))).isTrue();
    }

    @Test
    void anUnsignedReplayForAnotherGroupIsKept() {
        // what any producer to the topic can write
        assertThat(SHIPPING.decide(replay("billing", "desk-prod"))).isEqualTo(Decision.KEEP_UNSIGNED);
    }

    @Test
    void aReplayForTheConsumersOwnGroupIsKept() {
        assertThat(SHIPPING.decide(signedReplay("shipping", "desk-prod"))).isEqualTo(Decision.KEEP_OWN_GROUP);
        assertThat(SHIPPING.decide(replay("shipping", "desk-prod"))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aConsumerWithoutKeysSkipsNothing() {
        TargetGroupFilter withoutKeys = TargetGroupFilter.forGroup("shipping", ReplayKeys.none());

        assertThat(withoutKeys.decide(signedReplay("billing", "desk-prod"))).isEqualTo(Decision.KEEP_UNKNOWN_KEY);
        assertThat(withoutKeys.decide(replay("billing", "desk-prod"))).isEqualTo(Decision.KEEP_UNSIGNED);
    }

    @Test
    void aReplaySignedUnderAKeyTheConsumerDoesNotHoldIsKept() {
        ReplayKeys other = ReplayKeys.of("k9", "another-secret-that-is-32-bytes-long!");
        ReplayKeys sameIdOtherSecret = ReplayKeys.of("k1", "another-secret-that-is-32-bytes-long!");

        assertThat(SHIPPING.decide(signed(replay("billing", "desk-prod"), other, "k9"))).isEqualTo(Decision.KEEP_UNKNOWN_KEY);
        assertThat(SHIPPING.decide(signed(replay("billing", "desk-prod"), sameIdOtherSecret, "k1"))).isEqualTo(Decision.KEEP_BAD_SIGNATURE);
    }

    @Test
    void duringARotationReplaysSignedWithTheOldOrTheNewKeyAreSkipped() {
        ReplayKeys both = ReplayKeys.of(Map.of("k1", SECRET_1, "k2", SECRET_2));
        TargetGroupFilter rotating = TargetGroupFilter.forGroup("shipping", both);
        TargetGroupFilter newOnly = TargetGroupFilter.forGroup("shipping", ReplayKeys.of("k2", SECRET_2));

        assertThat(rotating.decide(signed(replay("billing", null), both, "k1"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(rotating.decide(signed(replay("billing", null), both, "k2"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(newOnly.decide(signed(replay("billing", null), both, "k1"))).as("the old key, removed").isEqualTo(Decision.KEEP_UNKNOWN_KEY);
    }

    @Test
    void aSignatureCopiedOntoAnotherRecordIsKept() {
        ConsumerRecord<byte[], byte[]> genuine = signedReplay("billing", "desk-prod");

        assertThat(SHIPPING.decide(copy(genuine, "orders", 0, genuine.key(), genuine.value()))).as("an exact copy").isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING.decide(copy(genuine, "orders", 0, genuine.key(), utf8("{\"order\":2}")))).as("other value")
                .isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        assertThat(SHIPPING.decide(copy(genuine, "orders", 0, utf8("order-2"), genuine.value()))).as("other key")
                .isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        assertThat(SHIPPING.decide(copy(genuine, "orders", 0, null, genuine.value()))).as("no key").isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        assertThat(SHIPPING.decide(copy(genuine, "orders", 1, genuine.key(), genuine.value()))).as("other partition")
                .isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        assertThat(SHIPPING.decide(copy(genuine, "payments", 0, genuine.key(), genuine.value()))).as("other topic")
                .isEqualTo(Decision.KEEP_BAD_SIGNATURE);
    }

    @Test
    void aReplayHeaderChangedOrAddedAfterSigningBreaksTheSignature() {
        for (String header : new String[] {ReplayHeaderNames.TARGET_GROUP, ReplayHeaderNames.OWNER, ReplayHeaderNames.ROOT_INCIDENT_ID,
                ReplayHeaderNames.ATTEMPT}) {
            ConsumerRecord<byte[], byte[]> tampered = signedReplay("billing", "desk-prod");
            tampered.headers().add(header, utf8("payments")); // the last header of a name is the one read

            assertThat(SHIPPING.decide(tampered)).as(header).isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        }
        ConsumerRecord<byte[], byte[]> otherHeader = signedReplay("billing", "desk-prod");
        otherHeader.headers().add("tenant", utf8("acme"));
        assertThat(SHIPPING.decide(otherHeader)).as("headers outside the replay's are not signed").isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aMalformedSignatureIsKept() {
        String valid = new String(signedReplay("billing", null).headers().lastHeader(ReplayHeaderNames.SIGNATURE).value());
        for (String malformed : new String[] {"", "garbage", valid.replace("v1:", "v2:"), valid.substring(0, valid.length() - 2),
                valid + "AA", valid.replace("v1:k1:", "v1:k1:!"), "v1:k1", valid + ":x"}) {
            ConsumerRecord<byte[], byte[]> record = replay("billing", null);
            record.headers().add(ReplayHeaderNames.SIGNATURE, utf8(malformed));

            assertThat(SHIPPING.decide(record)).as(malformed).isEqualTo(Decision.KEEP_BAD_SIGNATURE);
        }
    }

    @Test
    void aStringRecordIsVerifiedOverItsUtf8Bytes() {
        ConsumerRecord<String, String> record = signed(record("orders", 0, 0, "order-1", "façade", headers("billing", null)), KEY_1, "k1");

        assertThat(SHIPPING.decide(record)).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aRecordWhoseValueBytesAreUnknownIsKept() {
        ConsumerRecord<byte[], byte[]> signed = signedReplay("billing", null);
        ConsumerRecord<byte[], Object> deserialized = copy(signed, "orders", 0, signed.key(), Map.of("order", 1));

        assertThat(SHIPPING.decide(deserialized)).isEqualTo(Decision.KEEP_UNVERIFIABLE_RECORD);
    }

    @Test
    void groupsDifferingOnlyInCaseAreDifferentGroups() {
        // Kafka group ids are case-sensitive
        assertThat(SHIPPING.decide(signedReplay("Shipping", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aRecordWithoutTheTargetGroupHeaderIsKept() {
        assertThat(SHIPPING.decide(signedReplay(null, "desk-prod"))).isEqualTo(Decision.KEEP_NO_TARGET_GROUP);
    }

    @Test
    void aTargetGroupHeaderWithoutValueIsKept() {
        assertThat(SHIPPING.decide(record(new RecordHeaders().add(ReplayHeaderNames.TARGET_GROUP, null)))).isEqualTo(Decision.KEEP_NO_TARGET_GROUP);
    }

    @Test
    void aTargetGroupThatIsNotUtf8IsKept() {
        // "billing" followed by a lone continuation byte: a lenient decode would read "billing\uFFFD", another group
        byte[] notUtf8 = {'b', 'i', 'l', 'l', 'i', 'n', 'g', (byte) 0x80};
        ConsumerRecord<byte[], byte[]> record = signed(record(new RecordHeaders().add(ReplayHeaderNames.TARGET_GROUP, notUtf8)), KEY_1, "k1");
        assertThat(SHIPPING.decide(record)).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
    }

    @Test
    void aTargetGroupInNonAsciiUtf8IsRead() {
        assertThat(SHIPPING.decide(signedReplay("facturación", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(TargetGroupFilter.forGroup("facturación", KEY_1).decide(signedReplay("facturación", null))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aBlankTargetGroupIsKept() {
        assertThat(SHIPPING.decide(signedReplay(" ", "desk-prod"))).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
        assertThat(SHIPPING.decide(signedReplay("", "desk-prod"))).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
    }

    @Test
    void theLastTargetGroupHeaderDecides() {
        ConsumerRecord<byte[], byte[]> forBillingLast = replay("shipping", null);
        forBillingLast.headers().add(ReplayHeaderNames.TARGET_GROUP, utf8("billing"));
        ConsumerRecord<byte[], byte[]> forShippingLast = replay("billing", null);
        forShippingLast.headers().add(ReplayHeaderNames.TARGET_GROUP, utf8("shipping"));

        assertThat(SHIPPING.decide(signed(forBillingLast, KEY_1, "k1"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING.decide(signed(forShippingLast, KEY_1, "k1"))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aSignedReplayForAnotherGroupFromATrustedOwnerIsSkipped() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(signedReplay("billing", "desk-prod"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aSignedReplayForAnotherGroupFromAnUntrustedOwnerIsKept() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(signedReplay("billing", "desk-staging"))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void anUnsignedReplayFromATrustedOwnerIsKept() {
        // the owner header is as forgeable as the group: it counts only inside a signature
        assertThat(SHIPPING_TRUSTING_PROD.decide(replay("billing", "desk-prod"))).isEqualTo(Decision.KEEP_UNSIGNED);
    }

    @Test
    void aSignedReplayWithoutOwnerIsKeptWhenOwnersAreTrustedAndSkippedWhenNotConfigured() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(signedReplay("billing", null))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
        assertThat(SHIPPING.decide(signedReplay("billing", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void anOwnerThatIsNotUtf8IsNotTrusted() {
        byte[] prodThenBadByte = {'d', 'e', 's', 'k', '-', 'p', 'r', 'o', 'd', (byte) 0xFF};
        ConsumerRecord<byte[], byte[]> record = replay("billing", null);
        record.headers().add(ReplayHeaderNames.OWNER, prodThenBadByte);
        assertThat(SHIPPING_TRUSTING_PROD.decide(signed(record, KEY_1, "k1"))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void theLastOwnerHeaderDecides() {
        ConsumerRecord<byte[], byte[]> trustedLast = replay("billing", "desk-staging");
        trustedLast.headers().add(ReplayHeaderNames.OWNER, utf8("desk-prod"));
        ConsumerRecord<byte[], byte[]> untrustedLast = replay("billing", "desk-prod");
        untrustedLast.headers().add(ReplayHeaderNames.OWNER, utf8("desk-staging"));

        assertThat(SHIPPING_TRUSTING_PROD.decide(signed(trustedLast, KEY_1, "k1"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING_TRUSTING_PROD.decide(signed(untrustedLast, KEY_1, "k1"))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void anOwnTargetGroupIsKeptWhateverTheOwner() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(signedReplay("shipping", "desk-staging"))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aFilterNeedsAGroupAndNonBlankOwners() {
        assertThatThrownBy(() -> TargetGroupFilter.forGroup(" ", KEY_1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedOwners.of("desk-prod", "")).isInstanceOf(IllegalArgumentException.class);
        assertThat(TrustedOwners.of(java.util.Set.of())).isSameAs(TrustedOwners.any());
    }
}
