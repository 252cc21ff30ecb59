package io.dlqdesk.operations.security;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(shipped.jwt().roles()).as("no role-claim value grants anything unless named").isEmpty();
        assertThat(shipped.jwtRoleClaim()).isEqualTo("roles");
    }

    @Test
    void loginsAreLimitedByDefault() {
        assertThat(shipped.logins()).isEqualTo(new SecurityProperties.Logins(10, 50, Duration.ofMinutes(1), 4, 1, Duration.ofSeconds(2), 32));
        assertThat(shipped.users()).isEmpty();
        assertThat(shipped.serviceTokens()).isEmpty();
    }

    /** Configured users are a local run's: beyond loopback (or every interface) only when said so. */
    @Test
    void configuredUsersAreRefusedBeyondLoopbackUnlessAllowed() {
        SecurityProperties withUsers = bind(Map.of("dlqdesk.security.users[0].name", "alice",
                "dlqdesk.security.users[0].password-hash", "{bcrypt}$2a$04$abcdefghijklmnopqrstuv", "dlqdesk.security.users[0].roles", "VIEWER"));
        withUsers.requireUsersOnLoopbackUnlessAllowed("127.0.0.1");
        withUsers.requireUsersOnLoopbackUnlessAllowed("::1");
        withUsers.requireUsersOnLoopbackUnlessAllowed("localhost");
        assertThatThrownBy(() -> withUsers.requireUsersOnLoopbackUnlessAllowed(null)).hasMessageContaining("every interface")
                .hasMessageContaining("dlqdesk.security.users-beyond-loopback=true");
        assertThatThrownBy(() -> withUsers.requireUsersOnLoopbackUnlessAllowed("0.0.0.0")).hasMessageContaining("server.address=0.0.0.0");
        assertThatThrownBy(() -> withUsers.requireUsersOnLoopbackUnlessAllowed("10.1.2.3")).isInstanceOf(IllegalStateException.class);
        SecurityProperties allowed = bind(Map.of("dlqdesk.security.users[0].name", "alice",
                "dlqdesk.security.users[0].password-hash", "{bcrypt}$2a$04$abcdefghijklmnopqrstuv", "dlqdesk.security.users[0].roles", "VIEWER",
                "dlqdesk.security.users-beyond-loopback", "true"));
        allowed.requireUsersOnLoopbackUnlessAllowed("0.0.0.0");
        shipped.requireUsersOnLoopbackUnlessAllowed(null); // no users: nothing to expose
        assertThat(shipped.usersBeyondLoopback()).isFalse();
    }

    @org.springframework.boot.context.properties.EnableConfigurationProperties(SecurityProperties.class)
    static class Bound {
    }

    /** The removed role-prefix (and any misspelt key) is not ignored: the mapping it stood for is explicit now. */
    @Test
    void aSettingThisServiceDoesNotKnowStopsTheStart() {
        assertThatThrownBy(() -> started(Map.of("dlqdesk.security.jwt.role-prefix", "dlqdesk:")).close()).hasStackTraceContaining("role-prefix");
        try (var context = started(Map.of("dlqdesk.security.jwt.roles.VIEWER[0]", "dlqdesk:viewer"))) {
            assertThat(context.getBean(SecurityProperties.class).jwt().roles().get(Role.VIEWER)).isEqualTo(List.of("dlqdesk:viewer"));
        }
    }

    private static org.springframework.context.annotation.AnnotationConfigApplicationContext started(Map<String, Object> properties) {
        var context = new org.springframework.context.annotation.AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new org.springframework.core.env.MapPropertySource("test", properties));
        context.register(Bound.class);
        context.refresh();
        return context;
    }

    private static SecurityProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("dlqdesk.security", SecurityProperties.class);
    }
}
