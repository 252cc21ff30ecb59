package io.dlqdesk.domain;

import io.dlqdesk.domain.record.FailureKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FailureKeyTest {

    @Test
    void aCompleteKeyIsAccepted() {
        FailureKey key = new FailureKey("orders.v1_x-y", 0, 0L, "billing");
        assertThat(key.topic()).isEqualTo("orders.v1_x-y");
    }

    @Test
    void anIllegalTopicNameIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("orders/../x", 0, 0L, "g"))
                .withMessageContaining("topic");
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("", 0, 0L, "g"));
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("a".repeat(250), 0, 0L, "g"));
    }

    @Test
    void negativePartitionOrOffsetIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("t", -1, 0L, "g"))
                .withMessageContaining("partition");
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("t", 0, -1L, "g"))
                .withMessageContaining("offset");
    }

    @Test
    void aBlankGroupIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("t", 0, 0L, " "))
                .withMessageContaining("consumerGroup");
    }
}
