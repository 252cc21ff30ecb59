package io.dlqdesk.app;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InstancePropertiesTest {

    @Test
    void anExpiryOfAtLeastThreeHeartbeatsIsAllowed() {
        assertThat(new InstanceProperties(Duration.ofSeconds(2), Duration.ofSeconds(6)).expiry()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void anExpiryShorterThanThreeHeartbeatsIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceProperties(Duration.ofSeconds(2), Duration.ofMillis(5_999)))
                .withMessageContaining("dlqdesk.instances.expiry");
    }

    @Test
    void aHeartbeatIntervalOfZeroIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceProperties(Duration.ZERO, Duration.ofSeconds(10)));
    }
}
