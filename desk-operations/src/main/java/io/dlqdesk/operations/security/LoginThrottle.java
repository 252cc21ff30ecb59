package io.dlqdesk.operations.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Function;

/**
 * HTTP Basic's guard in the filter chain: {@link #beforeAuthentication()} refuses a throttled user or address
 * with 429 and takes a password-check permit, {@link #afterAuthentication()} gives it back as soon as the
 * password was checked; failures arrive as Spring Security events and are logged in one line and counted.
 * The console's form login is guarded the same way ({@link #beforeFormLogin}), with the same counts.
 */
public final class LoginThrottle {

    static final URI TOO_MANY_REQUESTS = URI.create("urn:dlqdesk:problem:too-many-requests");
    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    private static final String PERMIT = LoginThrottle.class.getName() + ".permit";

    private final LoginGuard guard;
    private final ObjectMapper json;
    private final ObjectProvider<MeterRegistry> meters;

    LoginThrottle(LoginGuard guard, ObjectMapper json, ObjectProvider<MeterRegistry> meters) {
        this.guard = guard;
        this.json = json;
        this.meters = meters;
    }

    @EventListener
    void onFailure(AbstractAuthenticationFailureEvent event) {
        if (!(event.getAuthentication() instanceof UsernamePasswordAuthenticationToken attempt)) {
            return;
        }
        String address = attempt.getDetails() instanceof WebAuthenticationDetails details ? details.getRemoteAddress() : "unknown";
        guard.failed(attempt.getName(), address); // the guard folds the name to its key: printable() would lose letters
        log.warn("failed login for user '{}' from {}: {}", printable(attempt.getName()), address, event.getException().getClass().getSimpleName());
        MeterRegistry registry = meters.getIfAvailable();
        if (registry != null) {
            registry.counter("dlqdesk.security.login.failures", "kind", "basic").increment();
        }
    }

    public OncePerRequestFilter beforeAuthentication() {
        return guarding(LoginThrottle::basicUser);
    }

    /**
     * For a login form: the user name of a {@code loginRequest} (its {@code usernameParameter}), throttled and bounded as a
     * Basic login is. Placed before the form's authentication filter; the permit is given back when the chain returns (the
     * form's filter answers the login itself, with a redirect).
     */
    public OncePerRequestFilter beforeFormLogin(RequestMatcher loginRequest, String usernameParameter) {
        return guarding(request -> loginRequest.matches(request)
                ? Optional.of(java.util.Objects.toString(request.getParameter(usernameParameter), "")) : Optional.empty());
    }

    private OncePerRequestFilter guarding(Function<HttpServletRequest, Optional<String>> userOf) {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                Optional<String> user = userOf.apply(request);
                if (user.isEmpty()) {
                    chain.doFilter(request, response);
                    return;
                }
                Optional<Duration> blocked = guard.blockedFor(user.get(), request.getRemoteAddr());
                if (blocked.isPresent()) {
                    tooMany(response, blocked.get(), "too many failed logins for this user or address; try again later");
                    return;
                }
                Optional<LoginGuard.Permit> permit;
                try {
                    permit = guard.tryAcquireCheck(user.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    tooMany(response, Duration.ofSeconds(1), "interrupted while waiting to check the password");
                    return;
                }
                if (permit.isEmpty()) {
                    tooMany(response, Duration.ofSeconds(1), "too many password checks at once; try again");
                    return;
                }
                request.setAttribute(PERMIT, permit.get());
                try {
                    chain.doFilter(request, response);
                } finally {
                    release(request); // the password check failed and the chain stopped there, or anything threw
                }
            }
        };
    }

    public OncePerRequestFilter afterAuthentication() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                release(request); // checked: the permit is not held while the request itself runs
                chain.doFilter(request, response);
            }
        };
    }

    private void release(HttpServletRequest request) {
        if (request.getAttribute(PERMIT) instanceof LoginGuard.Permit permit) {
            request.removeAttribute(PERMIT);
            permit.release();
        }
    }

    public void tooMany(HttpServletResponse response, Duration retryAfter, String detail) throws IOException {
        response.setHeader("Retry-After", String.valueOf(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        ProblemResponses.write(response, json, HttpStatus.TOO_MANY_REQUESTS, TOO_MANY_REQUESTS, detail);
    }

    /** The user name of a Basic header as sent, or empty when there is none (or it cannot be read: the Basic filter refuses it). */
    static Optional<String> basicUser(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? Optional.empty() : Optional.of(decoded.substring(0, colon));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** For a log line or a problem's detail: printable ASCII, at most 64 characters. */
    public static String printable(String name) {
        String cleaned = name == null ? "" : name.replaceAll("[^\\x20-\\x7E]", "?");
        return cleaned.length() > 64 ? cleaned.substring(0, 64) + "…" : cleaned;
    }
}
