package io.dlqdesk.api;

import io.dlqdesk.operations.security.SecurityProperties;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a bearer token must prove beyond its signature: our issuer, our audience, a subject, an expiry within
 * the maximum lifetime and an issue time not in the future; and which role-claim values grant which role (configured
 * exactly, never case-folded or guessed from a prefix, so neither {@code admın} nor {@code ROLE_ADMIN} is {@code admin}
 * unless named). A token's
 * principal is {@code jwt:<issuer>|<subject>}, which no Basic user name (no colon) can equal.
 */
final class TokenRules implements OAuth2TokenValidator<Jwt> {

    private final SecurityProperties.Jwt settings;
    private final String roleClaim;
    private final Clock clock;

    TokenRules(SecurityProperties properties, Clock clock) {
        this.settings = properties.jwt();
        this.roleClaim = properties.jwtRoleClaim();
        this.clock = clock;
    }

    /** Refuses to start with bearer tokens on and nothing to check them against, or no role they could grant. */
    void requireConfigured() {
        if (isBlank(settings.issuer()) || isBlank(settings.audience())) {
            throw new IllegalStateException("JWT authentication is on (spring.security.oauth2.resourceserver.jwt.*) but "
                    + "dlqdesk.security.jwt.issuer and dlqdesk.security.jwt.audience are not both set: without them a token "
                    + "issued for another application would be trusted here. Set them to your identity provider's issuer and "
                    + "this service's audience.");
        }
        if (settings.roles().values().stream().allMatch(List::isEmpty)) {
            throw new IllegalStateException("JWT authentication is on but dlqdesk.security.jwt.roles maps no role-claim value to a role: "
                    + "no token could do anything. Name, for each role, the exact claim values that grant it, e.g. "
                    + "dlqdesk.security.jwt.roles.VIEWER[0]=dlqdesk-viewer.");
        }
    }

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        List<OAuth2Error> errors = new ArrayList<>();
        Instant now = clock.instant();
        if (isBlank(token.getSubject())) {
            errors.add(invalid("the token has no subject (sub)"));
        }
        if (!settings.issuer().equals(token.getClaimAsString("iss"))) {
            errors.add(invalid("the token was not issued by " + settings.issuer()));
        }
        if (token.getAudience() == null || !token.getAudience().contains(settings.audience())) {
            errors.add(invalid("the token is not meant for audience " + settings.audience()));
        }
        Instant issuedAt = token.getIssuedAt();
        if (issuedAt != null && issuedAt.isAfter(now.plus(settings.clockSkew()))) {
            errors.add(invalid("the token is issued in the future (iat)"));
        }
        Instant expiresAt = token.getExpiresAt();
        if (expiresAt == null) {
            errors.add(invalid("the token has no expiry (exp)"));
        } else if (Duration.between(issuedAt != null && issuedAt.isBefore(now) ? issuedAt : now, expiresAt).compareTo(settings.maxLifetime()) > 0) {
            errors.add(invalid("the token lives longer than " + settings.maxLifetime()));
        }
        return errors.isEmpty() ? OAuth2TokenValidatorResult.success() : OAuth2TokenValidatorResult.failure(errors);
    }

    /** The decoder Spring Boot configured (signature, algorithm, exp/nbf), then these rules. */
    JwtDecoder validating(JwtDecoder signatureChecking) {
        return value -> {
            Jwt token = signatureChecking.decode(value);
            OAuth2TokenValidatorResult result = validate(token);
            if (result.hasErrors()) {
                throw new JwtValidationException(result.getErrors().iterator().next().getDescription(), result.getErrors());
            }
            return token;
        };
    }

    JwtAuthenticationToken authentication(Jwt token) {
        return new JwtAuthenticationToken(token, roles(token.getClaim(roleClaim)), "jwt:" + token.getClaimAsString("iss") + "|" + token.getSubject());
    }

    /** The roles whose configured claim values include one of the claim's values exactly; anything else grants nothing. */
    Collection<GrantedAuthority> roles(Object claim) {
        if (!(claim instanceof Collection<?> values)) {
            return List.of();
        }
        List<GrantedAuthority> roles = new ArrayList<>();
        settings.roles().forEach((role, granting) -> {
            if (values.stream().anyMatch(value -> value instanceof String name && granting.contains(name))) {
                roles.add(new SimpleGrantedAuthority("ROLE_" + role.name()));
            }
        });
        return roles;
    }

    private static OAuth2Error invalid(String description) {
        return new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null);
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
