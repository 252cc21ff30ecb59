package io.dlqdesk.app;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InstancePropertiesTest {

    @Test
    void anExpiryOfAtLeastThreeHeartbeatsIsAllowed() {
        assertThat(new InstanceProperties(Duration.ofSeconds(2), Duration.ofSeconds(6), Duration.ofSeconds(20)).expiry()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void anExpiryShorterThanThreeHeartbeatsIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceProperties(Duration.ofSeconds(2), Duration.ofMillis(5_999), Duration.ofSeconds(20)))
                .withMessageContaining("dlqdesk.instances.expiry");
    }

    @Test
    void aHeartbeatIntervalOfZeroIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceProperties(Duration.ZERO, Duration.ofSeconds(10), Duration.ofSeconds(20)));
    }

    @Test
    void aPositiveShutdownTimeoutIsAllowed() {
        assertThat(new InstanceProperties(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofMillis(1)).shutdownTimeout())
                .isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aShutdownTimeoutOfZeroIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceProperties(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ZERO))
                .withMessageContaining("dlqdesk.instances.shutdown-timeout");
    }
}
