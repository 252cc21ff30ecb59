package io.dlqdesk.api;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped defaults, as a deployment that sets nothing under dlqdesk.security gets them. */
class SecurityPropertiesDefaultsTest {

    private final SecurityProperties shipped = new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("dlqdesk.security", SecurityProperties.class);

    @Test
    void credentialHeadersAreRedactedByDefault() {
        assertThat(shipped.redactedHeaders()).containsExactly("authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key");
    }

    @Test
    void tokensAreBoundedByDefaultAndNoIssuerOrAudienceIsGuessed() {
        assertThat(shipped.jwt().issuer()).isNull();
        assertThat(shipped.jwt().audience()).isNull();
        assertThat(shipped.jwt().maxLifetime()).isEqualTo(Duration.ofHours(1));
        assertThat(shipped.jwt().clockSkew()).isEqualTo(Duration.ofSeconds(60));
        assertThat(shipped.jwt().rolePrefix()).isEmpty();
        assertThat(shipped.jwtRoleClaim()).isEqualTo("roles");
    }

    @Test
    void loginsAreLimitedByDefault() {
        assertThat(shipped.logins()).isEqualTo(new SecurityProperties.Logins(10, 50, Duration.ofMinutes(1), 4, Duration.ofSeconds(2), 32));
        assertThat(shipped.users()).isEmpty();
    }
}
