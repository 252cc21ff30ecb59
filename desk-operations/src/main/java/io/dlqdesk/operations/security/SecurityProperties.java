package io.dlqdesk.operations.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code dlqdesk.security.*}: HTTP Basic users from configuration, what a JWT must prove, and the DLQ record
 * headers never shown.
 *
 * @param jwtRoleClaim    the JWT claim that lists role names
 * @param jwt             what a bearer token must carry to be trusted
 * @param redactedHeaders DLQ record header names (any ASCII case) whose values no API answer shows
 * @param logins          what wrong HTTP Basic passwords may cost
 * @param serviceTokens   bearer tokens for pipelines and scrapers, stored as hashes
 * @param usersBeyondLoopback whether {@code users} may sign in when the service listens beyond the loopback interface
 */
@Validated
// a key this service does not know (a misspelt or removed setting, e.g. jwt.role-prefix) stops the start instead of being ignored
@ConfigurationProperties(prefix = "dlqdesk.security", ignoreUnknownFields = false)
public record SecurityProperties(@DefaultValue({}) List<@Valid User> users, @NotBlank @DefaultValue("roles") String jwtRoleClaim,
                                 @Valid @DefaultValue Jwt jwt,
                                 @NotNull @DefaultValue({"authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key"})
                                 List<String> redactedHeaders,
                                 @Valid @DefaultValue Logins logins,
                                 @DefaultValue({}) List<@Valid ServiceToken> serviceTokens,
                                 @DefaultValue("false") boolean usersBeyondLoopback) {

    /**
     * Users from configuration are meant for a local run; served on anything but a loopback address (no
     * {@code server.address} means every interface) they are refused unless {@code usersBeyondLoopback} says so.
     *
     * @param serverAddress {@code server.address}, or null when unset
     */
    void requireUsersOnLoopbackUnlessAllowed(String serverAddress) {
        if (users.isEmpty() || usersBeyondLoopback || loopback(serverAddress)) {
            return;
        }
        throw new IllegalStateException("dlqdesk.security.users are configured and the service listens on "
                + (serverAddress == null || serverAddress.isBlank() ? "every interface (server.address is not set)" : "server.address=" + serverAddress)
                + ": configured users are for a local run. Bind to 127.0.0.1, use JWTs or service tokens, or set "
                + "dlqdesk.security.users-beyond-loopback=true if these users are meant to sign in over the network.");
    }

    private static boolean loopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(address.strip()).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * A token for a pipeline or a scraper: {@code Authorization: Bearer dlqdesk_…}. Only its SHA-256 (hex) is configured;
     * its roles are DEPLOYER (rollback readiness) or METRICS (the Prometheus scrape), nothing that reads incidents or acts.
     * Remove the entry to revoke it.
     */
    public record ServiceToken(@NotBlank @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,62}", message = "must be 1 to 63 lower-case letters, digits or '-'") String name,
                               @NotBlank @Pattern(regexp = "[0-9a-f]{64}", message = "must be the token's SHA-256 in lower-case hex (64 characters), never the token")
                               String sha256,
                               @NotEmpty Set<Role> roles) {

        @AssertTrue(message = "a service token may have only the roles DEPLOYER and METRICS")
        public boolean isScopedToChecksAndMetrics() {
            return roles == null || Set.of(Role.DEPLOYER, Role.METRICS).containsAll(roles);
        }
    }

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
     * window (a user's name counted however it is spelt: case, surrounding spaces, compatibility forms), beyond which
     * the answer is 429 before any password is checked; and how many password checks (bcrypt) may run at once for the
     * configured users, and apart from them for names no user has (each checked against a dummy hash), at most {@code maxWaitingPasswordChecks} requests waiting at most
     * {@code passwordCheckWait} for one (more are answered 429 at once: each waiting request holds a server thread).
     */
    public record Logins(@Positive @DefaultValue("10") int maxFailuresPerUser, @Positive @DefaultValue("50") int maxFailuresPerAddress,
                         @NotNull @DefaultValue("1m") Duration window, @Positive @DefaultValue("4") int maxConcurrentPasswordChecks,
                         @Positive @DefaultValue("1") int maxConcurrentUnknownUserChecks,
                         @NotNull @DefaultValue("2s") Duration passwordCheckWait,
                         @PositiveOrZero @DefaultValue("32") int maxWaitingPasswordChecks) {
    }

    /**
     * {@code dlqdesk.security.jwt.*}. Issuer, audience and at least one role mapping are required whenever bearer tokens
     * are accepted.
     *
     * @param issuer      the {@code iss} a token must carry, exactly
     * @param audience    a value the token's {@code aud} must contain
     * @param maxLifetime longest accepted {@code exp} − {@code iat} (or {@code exp} − now without {@code iat})
     * @param clockSkew   how far in the future {@code iat} may be
     * @param roles       for each role of this service, the role-claim values that grant it, matched exactly (no case
     *                    folding, no prefix rule): a claim value no entry names grants nothing
     */
    public record Jwt(String issuer, String audience, @NotNull @DefaultValue("1h") Duration maxLifetime,
                      @NotNull @DefaultValue("60s") Duration clockSkew,
                      @NotNull @DefaultValue({}) Map<Role, List<@NotBlank @Size(max = 256) @Pattern(regexp = "\\p{Graph}+",
                              message = "must be printable ASCII without spaces") String>> roles) {
    }
}
