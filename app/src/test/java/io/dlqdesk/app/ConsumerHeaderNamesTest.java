package io.dlqdesk.app;

import io.dlqdesk.consumer.ReplayHeaderNames;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * dlq-desk-consumer ships to other teams without our domain, so it carries its own copy of the
 * header names the replay writes; here, where both are visible, the copies must be equal.
 */
class ConsumerHeaderNamesTest {

    @Test
    void theConsumerModuleReadsTheHeadersTheReplayWrites() {
        assertThat(ReplayHeaderNames.TARGET_GROUP).isEqualTo(ReplayHeaders.TARGET_GROUP);
        assertThat(ReplayHeaderNames.OWNER).isEqualTo(ReplayHeaders.OWNER);
        assertThat(ReplayHeaderNames.ROOT_INCIDENT_ID).isEqualTo(ReplayHeaders.ROOT_INCIDENT_ID);
        assertThat(ReplayHeaderNames.ATTEMPT).isEqualTo(ReplayHeaders.ATTEMPT);
        assertThat(ReplayHeaderNames.SIGNATURE).isEqualTo(ReplayHeaders.SIGNATURE);
    }
}
