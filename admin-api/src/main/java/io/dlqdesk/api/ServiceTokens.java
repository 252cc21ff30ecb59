package io.dlqdesk.api;

import io.dlqdesk.operations.security.LoginGuard;
import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.operations.security.SecurityProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Service tokens ({@code dlqdesk.security.service-tokens}): {@code Authorization: Bearer dlqdesk_…} for a deploy
 * pipeline's rollback check or a Prometheus scrape, with no password hash to compute per call. Only the SHA-256 of
 * each token is configured (a token is 32 random bytes or more, so a fast hash is enough: nothing to guess from it);
 * removing an entry revokes the token. A token the desk does not know is a 401 and counts as a failure of the
 * client's address, like a wrong password.
 */
final class ServiceTokens {

    /** Every service token starts with this, so a bearer token is either ours or a JWT, never both. */
    static final String PREFIX = "dlqdesk_";
    /** Longer than any token anybody generates: not even hashed. */
    private static final int MAX_LENGTH = 512;
    private static final Logger log = LoggerFactory.getLogger(ServiceTokens.class);

    private final Map<String, SecurityProperties.ServiceToken> bySha256;
    private final LoginGuard guard;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    /** A token with our prefix that no entry has: mistyped, or revoked. */
    static final class Unknown extends AuthenticationException {
        Unknown() {
            super("the service token is not known here: mistyped, or revoked");
        }
    }

    ServiceTokens(List<SecurityProperties.ServiceToken> tokens, LoginGuard guard) {
        this.bySha256 = tokens.stream().collect(Collectors.toUnmodifiableMap(SecurityProperties.ServiceToken::sha256, Function.identity()));
        this.guard = guard;
    }

    boolean any() {
        return !bySha256.isEmpty();
    }

    /** Authenticates a request that carries a service token; any other request passes untouched. */
    OncePerRequestFilter filter(AuthenticationEntryPoint unauthenticated, LoginThrottle throttle) {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                Optional<String> token = serviceToken(request);
                if (token.isEmpty()) {
                    chain.doFilter(request, response);
                    return;
                }
                String address = request.getRemoteAddr();
                Optional<Duration> blocked = guard.addressBlockedFor(address);
                if (blocked.isPresent()) {
                    throttle.tooMany(response, blocked.get(), "too many failed logins from this address; try again later");
                    return;
                }
                SecurityProperties.ServiceToken known = token.get().length() > MAX_LENGTH ? null : bySha256.get(sha256(token.get()));
                if (known == null) {
                    guard.failedFromAddress(address);
                    log.warn("unknown service token from {}", address);
                    unauthenticated.commence(request, response, new Unknown());
                    return;
                }
                SecurityContext context = contexts.createEmptyContext();
                context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("token:" + known.name(), null,
                        known.roles().stream().map(role -> new SimpleGrantedAuthority("ROLE_" + role.name())).toList()));
                contexts.setContext(context);
                try {
                    chain.doFilter(request, response);
                } finally {
                    contexts.clearContext();
                }
            }
        };
    }

    /** The bearer tokens JWT authentication reads: all but service tokens. */
    static BearerTokenResolver jwtsOnly() {
        DefaultBearerTokenResolver standard = new DefaultBearerTokenResolver();
        return request -> {
            String token = standard.resolve(request);
            return token != null && token.startsWith(PREFIX) ? null : token;
        };
    }

    private static Optional<String> serviceToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = header.substring(7).strip();
        return token.startsWith(PREFIX) ? Optional.of(token) : Optional.empty();
    }

    static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
