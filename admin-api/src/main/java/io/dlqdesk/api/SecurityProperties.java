package io.dlqdesk.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code dlqdesk.security.*}: HTTP Basic users from configuration, what a JWT must prove, and the DLQ record
 * headers never shown.
 *
 * @param jwtRoleClaim    the JWT claim that lists role names
 * @param jwt             what a bearer token must carry to be trusted
 * @param redactedHeaders DLQ record header names (any ASCII case) whose values no API answer shows
 * @param logins          what wrong HTTP Basic passwords may cost
 */
@Validated
@ConfigurationProperties("dlqdesk.security")
public record SecurityProperties(@DefaultValue({}) List<@Valid User> users, @NotBlank @DefaultValue("roles") String jwtRoleClaim,
                                 @Valid @DefaultValue Jwt jwt,
                                 @NotNull @DefaultValue({"authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key"})
                                 List<String> redactedHeaders,
                                 @Valid @DefaultValue Logins logins) {

    /**
     * A password is stored only as a hash, e.g. {@code {bcrypt}$2a$10$...}; plain text is refused. A name has
     * no colon (HTTP Basic could not send it), so it can never look like a token's {@code jwt:issuer|subject}.
     */
    public record User(@NotBlank @Pattern(regexp = "[^:]+", message = "must not contain ':'") String name,
                       @NotBlank @Pattern(regexp = "\\{(bcrypt|argon2|argon2@SpringSecurity_v5_8|pbkdf2|pbkdf2@SpringSecurity_v5_8|scrypt|scrypt@SpringSecurity_v5_8)}.+",
                               message = "must be a password hash with its {id} prefix, e.g. {bcrypt}..., never plain text") String passwordHash,
                       @NotEmpty Set<Role> roles) {
    }

    /**
     * {@code dlqdesk.security.logins.*}: HTTP Basic failures per user name and per client address within a
     * window, beyond which the answer is 429 before any password is checked; and how many password checks
     * (bcrypt) may run at once, at most {@code maxWaitingPasswordChecks} requests waiting at most
     * {@code passwordCheckWait} for one (more are answered 429 at once: each waiting request holds a server thread).
     */
    public record Logins(@Positive @DefaultValue("10") int maxFailuresPerUser, @Positive @DefaultValue("50") int maxFailuresPerAddress,
                         @NotNull @DefaultValue("1m") Duration window, @Positive @DefaultValue("4") int maxConcurrentPasswordChecks,
                         @NotNull @DefaultValue("2s") Duration passwordCheckWait,
                         @PositiveOrZero @DefaultValue("32") int maxWaitingPasswordChecks) {
    }

    /**
     * {@code dlqdesk.security.jwt.*}. Issuer and audience are required whenever bearer tokens are accepted.
     *
     * @param issuer      the {@code iss} a token must carry, exactly
     * @param audience    a value the token's {@code aud} must contain
     * @param maxLifetime longest accepted {@code exp} − {@code iat} (or {@code exp} − now without {@code iat})
     * @param clockSkew   how far in the future {@code iat} may be
     * @param rolePrefix  prefix of this service's role names in the role claim, e.g. {@code dlqdesk:}
     */
    public record Jwt(String issuer, String audience, @NotNull @DefaultValue("1h") Duration maxLifetime,
                      @NotNull @DefaultValue("60s") Duration clockSkew,
                      @NotNull @Pattern(regexp = "\\p{ASCII}*", message = "must be ASCII") @DefaultValue("") String rolePrefix) {
    }
}
