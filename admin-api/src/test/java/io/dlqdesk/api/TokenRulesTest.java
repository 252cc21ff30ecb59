package io.dlqdesk.api;

import io.dlqdesk.operations.security.Role;
import io.dlqdesk.operations.security.SecurityProperties;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private final TokenRules rules = rules(Map.of(Role.ADMIN, List.of("admin"), Role.VIEWER, List.of("VIEWER"),
            Role.DEPLOYER, List.of("deployer", "ci:deployer")));

    private static TokenRules rules(Map<Role, List<String>> roles) {
        return new TokenRules(new SecurityProperties(List.of(), "roles",
                new SecurityProperties.Jwt("https://idp/", "desk", Duration.ofHours(1), Duration.ofSeconds(60), roles), List.of(), null, List.of(), false),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static Jwt token(UnaryOperator<Jwt.Builder> change) {
        return change.apply(Jwt.withTokenValue("t").header("alg", "RS256").subject("alice").issuer("https://idp/").audience(List.of("desk"))
                .issuedAt(NOW).expiresAt(NOW.plusSeconds(300))).build();
    }

    private String refusal(UnaryOperator<Jwt.Builder> change) {
        return String.join(", ", rules.validate(token(change)).getErrors().stream().map(error -> error.getDescription()).toList());
    }

    @Test
    void aTokenForUsIsAccepted() {
        assertThat(rules.validate(token(jwt -> jwt)).hasErrors()).isFalse();
    }

    @Test
    void eachRuleRefusesOnItsOwn() {
        assertThat(refusal(jwt -> jwt.issuer("https://other/"))).contains("not issued by");
        assertThat(refusal(jwt -> jwt.audience(List.of("other")))).contains("audience");
        assertThat(refusal(jwt -> jwt.claims(claims -> claims.remove("exp")))).contains("no expiry");
        assertThat(refusal(jwt -> jwt.claims(claims -> claims.remove("sub")))).contains("no subject");
        assertThat(refusal(jwt -> jwt.issuedAt(NOW.plusSeconds(61)).expiresAt(NOW.plusSeconds(600)))).contains("future");
        assertThat(refusal(jwt -> jwt.expiresAt(NOW.plus(Duration.ofHours(1)).plusSeconds(1)))).contains("longer");
        assertThat(refusal(jwt -> jwt.claims(claims -> claims.remove("iat")).expiresAt(NOW.plus(Duration.ofDays(3650))))).contains("longer");
    }

    @Test
    void theLimitsThemselvesAreAccepted() {
        assertThat(refusal(jwt -> jwt.issuedAt(NOW.plusSeconds(60)))).isEmpty();
        assertThat(refusal(jwt -> jwt.expiresAt(NOW.plus(Duration.ofHours(1))))).isEmpty();
        assertThat(refusal(jwt -> jwt.audience(List.of("other", "desk")))).isEmpty();
    }

    @Test
    void roleNamesMatchExactlyAndAHomoglyphGrantsNothing() {
        assertThat(names(rules.roles(List.of("admin")))).containsExactly("ROLE_ADMIN");
        assertThat(names(rules.roles(List.of("VIEWER", "deployer")))).containsExactlyInAnyOrder("ROLE_VIEWER", "ROLE_DEPLOYER");
        assertThat(rules.roles(List.of("admın", "ADMİN", "Admin", " admin", "janitor"))).isEmpty();
        assertThat(rules.roles("admin")).isEmpty();
    }

    /** Only what the mapping names: a role's own name in another case, or with Spring's prefix, grants nothing. */
    @Test
    void onlyTheConfiguredClaimValuesGrantARole() {
        assertThat(names(rules.roles(List.of("ci:deployer")))).containsExactly("ROLE_DEPLOYER");
        assertThat(rules.roles(List.of("ROLE_ADMIN", "ADMIN", "viewer", "operator", "OPERATOR", "deployer:ci"))).isEmpty();
    }

    @Test
    void theTokenPrincipalNamesItsIssuer() {
        assertThat(rules.authentication(token(jwt -> jwt.subject("admin"))).getName()).isEqualTo("jwt:https://idp/|admin");
    }

    @Test
    void withoutIssuerOrAudienceConfiguredItRefusesToStart() {
        TokenRules unset = new TokenRules(new SecurityProperties(List.of(), "roles",
                new SecurityProperties.Jwt(null, "desk", Duration.ofHours(1), Duration.ofSeconds(60), Map.of(Role.VIEWER, List.of("v"))),
                List.of(), null, List.of(), false), Clock.systemUTC());
        assertThatThrownBy(unset::requireConfigured).hasMessageContaining("dlqdesk.security.jwt.issuer and dlqdesk.security.jwt.audience");
        rules.requireConfigured();
    }

    @Test
    void withoutARoleMappingItRefusesToStart() {
        assertThatThrownBy(rules(Map.of())::requireConfigured).hasMessageContaining("dlqdesk.security.jwt.roles maps no role-claim value");
        assertThatThrownBy(rules(Map.of(Role.ADMIN, List.of()))::requireConfigured).hasMessageContaining("dlqdesk.security.jwt.roles");
        rules(Map.of(Role.VIEWER, List.of("reader"))).requireConfigured();
    }

    private static List<String> names(java.util.Collection<GrantedAuthority> authorities) {
        return authorities.stream().map(GrantedAuthority::getAuthority).toList();
    }
}
