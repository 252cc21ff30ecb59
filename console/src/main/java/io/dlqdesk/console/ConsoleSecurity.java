package io.dlqdesk.console;

import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.operations.security.Role;
import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * The console's own filter chain, before the API's (which matches everything else): form login with a session for the
 * same users and roles ({@code dlqdesk.security.users}), CSRF tokens on every form, a new session id at login, logout,
 * and headers that let a page run only the scripts it was served with (htmx from its webjar, our one static file) and
 * never be framed. Bearer tokens and HTTP Basic are not accepted here, and the session is not accepted by the API.
 */
@Configuration(proxyBeanMethods = false)
public class ConsoleSecurity {

    public static final String LOGIN = "/login";
    /** No inline script or style, no plugins, no foreign origin, never framed; forms post only here. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    private static final String[] OPERATOR_POSTS = {"/console/incidents/*/acknowledge", "/console/incidents/*/resolve",
            "/console/incidents/*/discard", "/console/incidents/*/replay", "/console/replay-jobs/*/cancel"};
    private static final String[] APPROVER_POSTS = {"/console/replay-jobs/*/approve", "/console/incidents/*/edits/*/approve"};
    private static final String[] EDITOR_POSTS = {"/console/incidents/*/edits"};
    private static final String[] ADMIN_POSTS = {"/console/incidents/*/attempts/*/publish-unknown", "/console/replay-switch",
            "/console/parked-events/retry", "/console/parked-events/*/retry", "/console/parked-events/*/evict", "/console/rebuilds",
            "/console/rebuilds/*/cancel"};

    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE - 100) // before the API's chain, which matches every request
    SecurityFilterChain console(HttpSecurity http, LoginThrottle throttle) throws Exception {
        PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
        http.securityMatcher("/console", "/console/**", LOGIN, "/logout", "/webjars/htmx.org/**")
                .authorizeHttpRequests(requests -> requests
                        // the second dispatch of a page that waited (the rollback verdict), error pages and the forward to the 403
                        // page: each renders a request that was decided on its first dispatch
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR, DispatcherType.FORWARD).permitAll()
                        .requestMatchers(paths.matcher(HttpMethod.GET, LOGIN), paths.matcher(HttpMethod.GET, "/console/assets/**"),
                                paths.matcher(HttpMethod.GET, "/webjars/htmx.org/**")).permitAll()
                        .requestMatchers(HttpMethod.POST, OPERATOR_POSTS).hasRole(Role.OPERATOR.name())
                        .requestMatchers(HttpMethod.POST, ADMIN_POSTS).hasRole(Role.ADMIN.name())
                        .requestMatchers(HttpMethod.POST, APPROVER_POSTS).hasRole(Role.APPROVER.name())
                        .requestMatchers(HttpMethod.POST, EDITOR_POSTS).hasRole(Role.EDITOR.name())
                        .requestMatchers(paths.matcher(HttpMethod.GET, "/console"), paths.matcher(HttpMethod.GET, "/console/**"),
                                paths.matcher(HttpMethod.HEAD, "/console"), paths.matcher(HttpMethod.HEAD, "/console/**"))
                        .hasRole(Role.VIEWER.name())
                        .anyRequest().denyAll())
                .formLogin(form -> form.loginPage(LOGIN).defaultSuccessUrl("/console").failureUrl(LOGIN + "?error").permitAll())
                .requestCache(cache -> cache.requestCache(pagesOnly()))
                .logout(logout -> logout.logoutRequestMatcher(paths.matcher(HttpMethod.POST, "/logout"))
                        .logoutSuccessUrl(LOGIN + "?logout").deleteCookies("JSESSIONID").invalidateHttpSession(true))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.IF_REQUIRED)
                        .sessionFixation(fixation -> fixation.changeSessionId()))
                .addFilterBefore(throttle.beforeFormLogin(paths.matcher(HttpMethod.POST, LOGIN), "username"),
                        UsernamePasswordAuthenticationFilter.class)
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .frameOptions(frame -> frame.deny())
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)))
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint(signIn())
                        .accessDeniedHandler(forbiddenPage()));
        return http.build();
    }

    /** After signing in, back to the page asked for; never to a panel an htmx request asked for. */
    private static HttpSessionRequestCache pagesOnly() {
        HttpSessionRequestCache cache = new HttpSessionRequestCache();
        cache.setRequestMatcher(request -> "GET".equals(request.getMethod()) && request.getHeader("HX-Request") == null);
        return cache;
    }

    /** To the login page; an htmx request (a panel refreshing after the session ended) is told to go there instead of swapping it in. */
    private static AuthenticationEntryPoint signIn() {
        LoginUrlAuthenticationEntryPoint page = new LoginUrlAuthenticationEntryPoint(LOGIN);
        return (request, response, e) -> {
            if ("true".equals(request.getHeader("HX-Request"))) {
                response.setHeader("HX-Redirect", LOGIN);
                response.setStatus(HttpStatus.UNAUTHORIZED.value());
                return;
            }
            page.commence(request, response, e);
        };
    }

    /** A 403 page (a role that may not, or a form without its CSRF token), rendered by the console. */
    private static AccessDeniedHandlerImpl forbiddenPage() {
        AccessDeniedHandlerImpl handler = new AccessDeniedHandlerImpl();
        handler.setErrorPage("/console/forbidden");
        return handler;
    }
}
