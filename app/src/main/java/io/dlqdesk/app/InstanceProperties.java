package io.dlqdesk.app;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** {@code dlqdesk.instances.*}: how instances sharing a database tell each other they are alive. */
@Validated
@ConfigurationProperties("dlqdesk.instances")
record InstanceProperties(
        @NotNull @DefaultValue("2s") Duration heartbeatInterval,
        @NotNull @DefaultValue("10s") Duration expiry) {

    InstanceProperties {
        if (heartbeatInterval != null && expiry != null
                && (heartbeatInterval.isNegative() || heartbeatInterval.isZero() || expiry.compareTo(heartbeatInterval.multipliedBy(3)) < 0)) {
            throw new IllegalArgumentException("dlqdesk.instances.expiry (" + expiry + ") must be at least three heartbeat intervals ("
                    + heartbeatInterval + "), and the interval positive: one late heartbeat must not count an instance dead");
        }
    }
}
