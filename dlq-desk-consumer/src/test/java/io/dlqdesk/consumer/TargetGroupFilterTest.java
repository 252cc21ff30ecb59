package io.dlqdesk.consumer;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each rule that skips is paired with the nearest record that must be kept. */
class TargetGroupFilterTest {

    private static final TargetGroupFilter SHIPPING = TargetGroupFilter.forGroup("shipping");
    private static final TargetGroupFilter SHIPPING_TRUSTING_PROD = new TargetGroupFilter("shipping", TrustedOwners.of("desk-prod"));

    @Test
    void aReplayForAnotherGroupIsSkipped() {
        assertThat(SHIPPING.decide(headers("billing", "desk-prod"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING.skips(headers("billing", "desk-prod"))).isTrue();
    }

    @Test
    void aReplayForTheConsumersOwnGroupIsKept() {
        assertThat(SHIPPING.decide(headers("shipping", "desk-prod"))).isEqualTo(Decision.KEEP_OWN_GROUP);
        assertThat(SHIPPING.skips(headers("shipping", "desk-prod"))).isFalse();
    }

    @Test
    void groupsDifferingOnlyInCaseAreDifferentGroups() {
        // Kafka group ids are case-sensitive
        assertThat(SHIPPING.decide(headers("Shipping", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aRecordWithoutTheTargetGroupHeaderIsKept() {
        assertThat(SHIPPING.decide(headers(null, "desk-prod"))).isEqualTo(Decision.KEEP_NO_TARGET_GROUP);
    }

    @Test
    void aTargetGroupHeaderWithoutValueIsKept() {
        Headers headers = new RecordHeaders().add(ReplayHeaderNames.TARGET_GROUP, null);
        assertThat(SHIPPING.decide(headers)).isEqualTo(Decision.KEEP_NO_TARGET_GROUP);
    }

    @Test
    void aTargetGroupThatIsNotUtf8IsKept() {
        // "billing" followed by a lone continuation byte: a lenient decode would read "billing\uFFFD", another group
        byte[] notUtf8 = {'b', 'i', 'l', 'l', 'i', 'n', 'g', (byte) 0x80};
        Headers headers = new RecordHeaders().add(ReplayHeaderNames.TARGET_GROUP, notUtf8);
        assertThat(SHIPPING.decide(headers)).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
    }

    @Test
    void aTargetGroupInNonAsciiUtf8IsRead() {
        assertThat(SHIPPING.decide(headers("facturación", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(TargetGroupFilter.forGroup("facturación").decide(headers("facturación", null))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aBlankTargetGroupIsKept() {
        assertThat(SHIPPING.decide(headers(" ", "desk-prod"))).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
        assertThat(SHIPPING.decide(headers("", "desk-prod"))).isEqualTo(Decision.KEEP_UNREADABLE_TARGET_GROUP);
    }

    @Test
    void theLastTargetGroupHeaderDecides() {
        Headers forBillingLast = headers("shipping", null).add(ReplayHeaderNames.TARGET_GROUP, utf8("billing"));
        Headers forShippingLast = headers("billing", null).add(ReplayHeaderNames.TARGET_GROUP, utf8("shipping"));

        assertThat(SHIPPING.decide(forBillingLast)).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING.decide(forShippingLast)).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aReplayForAnotherGroupFromATrustedOwnerIsSkipped() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(headers("billing", "desk-prod"))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void aReplayForAnotherGroupFromAnUntrustedOwnerIsKept() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(headers("billing", "desk-staging"))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void aReplayWithoutOwnerIsKeptWhenOwnersAreTrustedAndSkippedWhenNotConfigured() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(headers("billing", null))).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
        assertThat(SHIPPING.decide(headers("billing", null))).isEqualTo(Decision.SKIP_OTHER_GROUP);
    }

    @Test
    void anOwnerThatIsNotUtf8IsNotTrusted() {
        byte[] prodThenBadByte = {'d', 'e', 's', 'k', '-', 'p', 'r', 'o', 'd', (byte) 0xFF};
        Headers headers = headers("billing", null).add(ReplayHeaderNames.OWNER, prodThenBadByte);
        assertThat(SHIPPING_TRUSTING_PROD.decide(headers)).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void theLastOwnerHeaderDecides() {
        Headers trustedLast = headers("billing", "desk-staging").add(ReplayHeaderNames.OWNER, utf8("desk-prod"));
        Headers untrustedLast = headers("billing", "desk-prod").add(ReplayHeaderNames.OWNER, utf8("desk-staging"));

        assertThat(SHIPPING_TRUSTING_PROD.decide(trustedLast)).isEqualTo(Decision.SKIP_OTHER_GROUP);
        assertThat(SHIPPING_TRUSTING_PROD.decide(untrustedLast)).isEqualTo(Decision.KEEP_UNTRUSTED_OWNER);
    }

    @Test
    void anOwnTargetGroupIsKeptWhateverTheOwner() {
        assertThat(SHIPPING_TRUSTING_PROD.decide(headers("shipping", "desk-staging"))).isEqualTo(Decision.KEEP_OWN_GROUP);
    }

    @Test
    void aFilterNeedsAGroupAndNonBlankOwners() {
        assertThatThrownBy(() -> TargetGroupFilter.forGroup(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedOwners.of("desk-prod", "")).isInstanceOf(IllegalArgumentException.class);
        assertThat(TrustedOwners.of(java.util.Set.of())).isSameAs(TrustedOwners.any());
    }

    static Headers headers(String targetGroup, String owner) {
        Headers headers = new RecordHeaders();
        headers.add(ReplayHeaderNames.ROOT_INCIDENT_ID, utf8("incident-1"));
        if (targetGroup != null) {
            headers.add(ReplayHeaderNames.TARGET_GROUP, utf8(targetGroup));
        }
        if (owner != null) {
            headers.add(ReplayHeaderNames.OWNER, utf8(owner));
        }
        return headers;
    }

    static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
