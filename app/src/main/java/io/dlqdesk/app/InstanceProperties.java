package io.dlqdesk.app;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** {@code dlqdesk.instances.*}: how instances sharing a database tell each other they are alive, and how long one takes to leave. */
@Validated
@ConfigurationProperties("dlqdesk.instances")
record InstanceProperties(
        @NotNull @DefaultValue("2s") Duration heartbeatInterval,
        @NotNull @DefaultValue("10s") Duration expiry,
        /* a graceful shutdown still running this long after SIGTERM halts the process (fits Kubernetes' 30 s with a 5 s preStop) */
        @NotNull @DefaultValue("20s") Duration shutdownTimeout) {

    InstanceProperties {
        if (heartbeatInterval != null && expiry != null
                && (heartbeatInterval.isNegative() || heartbeatInterval.isZero() || expiry.compareTo(heartbeatInterval.multipliedBy(3)) < 0)) {
            throw new IllegalArgumentException("dlqdesk.instances.expiry (" + expiry + ") must be at least three heartbeat intervals ("
                    + heartbeatInterval + "), and the interval positive: one late heartbeat must not count an instance dead");
        }
        if (shutdownTimeout != null && (shutdownTimeout.isNegative() || shutdownTimeout.isZero())) {
            throw new IllegalArgumentException("dlqdesk.instances.shutdown-timeout must be positive, was " + shutdownTimeout);
        }
    }
}
