package io.dlqdesk.operations.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

import java.time.Clock;
import java.util.Set;
import java.util.stream.Collectors;

/** Who may sign in at either front door, with which roles, and how failed sign-ins are limited. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
public class DeskSecurity {

    /** Failures per user and address, and the password-check permits: one for Basic, the console's form and service tokens. */
    @Bean
    LoginGuard loginGuard(SecurityProperties properties) {
        Set<String> known = properties.users().stream().map(user -> LoginGuard.key(user.name())).collect(Collectors.toUnmodifiableSet());
        return new LoginGuard(properties.logins(), known::contains, Clock.systemUTC());
    }

    /** Failed Basic logins logged, counted and limited; password checks bounded in concurrency. */
    @Bean
    LoginThrottle loginThrottle(LoginGuard guard, ObjectMapper json, ObjectProvider<MeterRegistry> meters) {
        return new LoginThrottle(guard, json, meters);
    }

    /**
     * admin > operator > viewer; an approver reads (to see what they approve) but is implied by no other role, so four-eyes
     * needs a grant of its own; so does an editor, who reads too; deployer and metrics stand alone.
     */
    @Bean
    static RoleHierarchy roleHierarchy() {
        return RoleHierarchyImpl.withDefaultRolePrefix()
                .role(Role.ADMIN.name()).implies(Role.OPERATOR.name())
                .role(Role.OPERATOR.name()).implies(Role.VIEWER.name())
                .role(Role.APPROVER.name()).implies(Role.VIEWER.name())
                .role(Role.EDITOR.name()).implies(Role.VIEWER.name())
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /** Always defined, so that Spring Boot never invents a user with a logged password. */
    @Bean
    UserDetailsService users(SecurityProperties properties, Environment environment) {
        properties.requireUsersOnLoopbackUnlessAllowed(environment.getProperty("server.address"));
        return new InMemoryUserDetailsManager(properties.users().stream()
                .map(user -> User.withUsername(user.name()).password(user.passwordHash())
                        .roles(user.roles().stream().map(Role::name).toArray(String[]::new)).build())
                .toList());
    }
}
