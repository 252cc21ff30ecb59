package io.dlqdesk.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Authentication everywhere but the health probes. Locally, HTTP Basic users from configuration
 * (hashed passwords); in production, JWTs from the configured issuer with roles in a claim. Nothing
 * configured means nobody gets in (fail closed). The principal is always the authenticated one.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
@EnableConfigurationProperties(SecurityProperties.class)
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

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
    SecurityFilterChain api(HttpSecurity http, SecurityProperties properties, ObjectProvider<JwtDecoder> jwt, ObjectMapper json)
            throws Exception {
        http.csrf(csrf -> csrf.disable()) // no cookies, no sessions: Basic or bearer on every request
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness").permitAll()
                        .requestMatchers("/actuator/**").hasRole(Role.ADMIN.name())
                        // the API's description is for anyone who may call it
                        .requestMatchers(HttpMethod.GET, "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
                        .hasAnyRole(Role.VIEWER.name(), Role.DEPLOYER.name())
                        .requestMatchers(HttpMethod.GET, "/api/v1/**").hasAnyRole(Role.VIEWER.name(), Role.DEPLOYER.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/incidents/*/acknowledge", "/api/v1/incidents/*/resolve",
                                "/api/v1/incidents/*/discard", "/api/v1/incidents/*/replay").hasRole(Role.OPERATOR.name())
                        .requestMatchers(HttpMethod.POST, "/api/v1/incidents/*/attempts/*/publish-unknown").hasRole(Role.ADMIN.name())
                        .requestMatchers(HttpMethod.PUT, "/api/v1/replay-switch").hasRole(Role.ADMIN.name())
                        .anyRequest().authenticated())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> {
                            response.setHeader("WWW-Authenticate", "Basic realm=\"dlq-incident-desk\"");
                            ProblemResponses.write(response, json, HttpStatus.UNAUTHORIZED, ProblemResponses.UNAUTHENTICATED,
                                    "authentication required");
                        })
                        .accessDeniedHandler((request, response, e) -> ProblemResponses.write(response, json, HttpStatus.FORBIDDEN,
                                ProblemResponses.FORBIDDEN, "your role does not allow " + request.getMethod() + " " + request.getRequestURI())));
        boolean basic = !properties.users().isEmpty();
        if (basic) {
            http.httpBasic(Customizer.withDefaults());
        }
        boolean bearer = jwt.getIfAvailable() != null;
        if (bearer) {
            JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
            converter.setJwtGrantedAuthoritiesConverter(token -> roles(token.getClaim(properties.jwtRoleClaim())));
            http.oauth2ResourceServer(server -> server.jwt(config -> config.jwtAuthenticationConverter(converter)));
        }
        if (!basic && !bearer) {
            log.warn("no users (dlqdesk.security.users) and no JWT issuer configured: every API request will be refused");
        }
        return http.build();
    }

    /** admin > operator > viewer; deployer stands alone. */
    @Bean
    static RoleHierarchy roleHierarchy() {
        return RoleHierarchyImpl.withDefaultRolePrefix()
                .role(Role.ADMIN.name()).implies(Role.OPERATOR.name())
                .role(Role.OPERATOR.name()).implies(Role.VIEWER.name())
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /** Always defined, so that Spring Boot never invents a user with a logged password. */
    @Bean
    UserDetailsService users(SecurityProperties properties) {
        return new InMemoryUserDetailsManager(properties.users().stream()
                .map(user -> User.withUsername(user.name()).password(user.passwordHash())
                        .roles(user.roles().stream().map(Role::name).toArray(String[]::new)).build())
                .toList());
    }

    /** Known role names in the claim (any case) become roles; anything else grants nothing. */
    private static Collection<GrantedAuthority> roles(Object claim) {
        if (!(claim instanceof Collection<?> values)) {
            return List.of();
        }
        return values.stream().map(value -> String.valueOf(value).toUpperCase(Locale.ROOT))
                .filter(name -> Arrays.stream(Role.values()).anyMatch(role -> role.name().equals(name)))
                .<GrantedAuthority>map(name -> new SimpleGrantedAuthority("ROLE_" + name))
                .toList();
    }
}
