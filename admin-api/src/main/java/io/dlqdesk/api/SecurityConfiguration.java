package io.dlqdesk.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.operations.security.LoginGuard;
import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.operations.security.ProblemResponses;
import io.dlqdesk.operations.security.Role;
import io.dlqdesk.operations.security.SecurityProperties;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Authentication everywhere but the health probes. Locally, HTTP Basic users from configuration
 * (hashed passwords); in production, JWTs from the configured issuer with roles in a claim. Nothing
 * configured means nobody gets in (fail closed). The principal is always the authenticated one.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    private static final String[] ROLLBACK_READINESS = {"/api/v1/rollback-readiness"};
    private static final String[] API_DOCS = {"/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html", "/swagger-ui/**",
            "/webjars/swagger-ui/**"};
    /** Every read of the API but rollback readiness (DEPLOYER reads that alone). */
    private static final String[] VIEWER_READS = {"/api/v1/incidents", "/api/v1/incidents/*", "/api/v1/incidents/*/history",
            "/api/v1/incidents/*/edits",
            "/api/v1/incident-counts", "/api/v1/exception-groups", "/api/v1/audit", "/api/v1/audit/incidents-as-of", "/api/v1/quarantine",
            "/api/v1/quarantine/*/*/*", "/api/v1/topics/retention", "/api/v1/replay-switch", "/api/v1/replay-jobs", "/api/v1/replay-jobs/*",
            "/api/v1/parked-events", "/api/v1/read-model-rebuilds", "/api/v1/read-model-rebuilds/*"};

    /**
     * A request the firewall rejects (encoded slashes or dots, NUL, non-normalised paths) is a 400
     * problem, answered before any endpoint or error page sees it.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler(ObjectMapper json) {
        return (request, response, e) -> ProblemResponses.write(response, json, HttpStatus.BAD_REQUEST, ProblemResponses.INVALID_INPUT,
                "the request path is not allowed: " + e.getMessage());
    }

    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE) // matches every request: chains for particular paths (the console's) come first
    SecurityFilterChain api(HttpSecurity http, SecurityProperties properties, ObjectProvider<JwtDecoder> jwt, ObjectMapper json,
                            LoginThrottle throttle, LoginGuard guard) throws Exception {
        http.csrf(csrf -> csrf.disable()) // no cookies, no sessions: Basic or bearer on every request
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(requests -> requests
                        // the second dispatch of an asynchronous answer (rollback readiness) and error pages render a
                        // request that was authorized on its first dispatch
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                        .requestMatchers("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness").permitAll()
                        // the service's root: links for a client, the console's sign-in for a browser (nothing of the desk's data)
                        .requestMatchers(reads("/")).permitAll()
                        // the scraper's own role, so its credential reads no incident and no other actuator endpoint
                        .requestMatchers(reads("/actuator/prometheus")).hasAnyRole(Role.METRICS.name(), Role.ADMIN.name())
                        .requestMatchers("/actuator/**").hasRole(Role.ADMIN.name())
                        // HEAD is a GET without the body: it follows GET's rule (else a HEAD is an existence oracle)
                        .requestMatchers(reads(ROLLBACK_READINESS)).hasAnyRole(Role.VIEWER.name(), Role.DEPLOYER.name())
                        .requestMatchers(reads(API_DOCS)).hasRole(Role.VIEWER.name())
                        .requestMatchers(reads(VIEWER_READS)).hasRole(Role.VIEWER.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/incidents/*/acknowledge", "/api/v1/incidents/*/resolve",
                                "/api/v1/incidents/*/discard", "/api/v1/incidents/*/replay").hasRole(Role.OPERATOR.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/replay-jobs", "/api/v1/replay-jobs/*/pause", "/api/v1/replay-jobs/*/resume",
                                "/api/v1/replay-jobs/*/cancel").hasRole(Role.OPERATOR.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/replay-jobs/*/approve", "/api/v1/incidents/*/edits/*/approve")
                        .hasRole(Role.APPROVER.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/incidents/*/edits").hasRole(Role.EDITOR.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/incidents/*/attempts/*/publish-unknown",
                                "/api/v1/incidents/*/attempts/*/waive-consumption").hasRole(Role.ADMIN.name())
                        .requestMatchers(HttpMethod.PUT, "/api/v1/replay-switch").hasRole(Role.ADMIN.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/parked-events/retry", "/api/v1/parked-events/*/retry",
                                "/api/v1/parked-events/*/evict").hasRole(Role.ADMIN.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/read-model-rebuilds", "/api/v1/read-model-rebuilds/*/cancel")
                        .hasRole(Role.ADMIN.name())
                        // anything not named above: nobody
                        .anyRequest().denyAll())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint(unauthenticated(json))
                        .accessDeniedHandler((request, response, e) -> ProblemResponses.write(response, json, HttpStatus.FORBIDDEN,
                                ProblemResponses.FORBIDDEN, "your role does not allow " + request.getMethod() + " " + request.getRequestURI())));
        ServiceTokens tokens = new ServiceTokens(properties.serviceTokens(), guard);
        if (tokens.any()) {
            http.addFilterBefore(tokens.filter(unauthenticated(json), throttle), BasicAuthenticationFilter.class);
        }
        boolean basic = !properties.users().isEmpty();
        if (basic) {
            http.httpBasic(Customizer.withDefaults())
                    .addFilterBefore(throttle.beforeAuthentication(), BasicAuthenticationFilter.class)
                    .addFilterAfter(throttle.afterAuthentication(), BasicAuthenticationFilter.class);
        }
        JwtDecoder signatureChecking = jwt.getIfAvailable();
        boolean bearer = signatureChecking != null;
        if (bearer) {
            TokenRules rules = new TokenRules(properties, Clock.systemUTC());
            rules.requireConfigured();
            http.oauth2ResourceServer(server -> server
                    .authenticationEntryPoint(unauthenticated(json))
                    .bearerTokenResolver(ServiceTokens.jwtsOnly())
                    .jwt(config -> config.decoder(rules.validating(signatureChecking)).jwtAuthenticationConverter(rules::authentication)));
        }
        if (!basic && !bearer && !tokens.any()) {
            log.warn("no users (dlqdesk.security.users), no service tokens and no JWT issuer configured: every API request will be refused");
        }
        return http.build();
    }

    /** GET and HEAD of these paths. */
    private static RequestMatcher reads(String... paths) {
        List<RequestMatcher> matchers = new ArrayList<>();
        for (String path : paths) {
            matchers.add(PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, path));
            matchers.add(PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.HEAD, path));
        }
        return new OrRequestMatcher(matchers);
    }

    /** 401 as a problem; the challenge names bearer tokens when one was sent, else Basic. */
    private static AuthenticationEntryPoint unauthenticated(ObjectMapper json) {
        return (request, response, e) -> {
            String authorization = request.getHeader("Authorization");
            boolean bearer = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
            response.setHeader("WWW-Authenticate", bearer ? "Bearer error=\"invalid_token\"" : "Basic realm=\"dlq-incident-desk\"");
            String detail = e instanceof OAuth2AuthenticationException invalid && invalid.getError().getDescription() != null
                    ? "the bearer token is not accepted: " + invalid.getError().getDescription()
                    : e instanceof ServiceTokens.Unknown ? e.getMessage() : "authentication required";
            ProblemResponses.write(response, json, HttpStatus.UNAUTHORIZED, ProblemResponses.UNAUTHENTICATED, detail);
        };
    }
}
