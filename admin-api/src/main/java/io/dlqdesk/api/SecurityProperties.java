package io.dlqdesk.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.util.List;
import java.util.Set;

/** {@code dlqdesk.security.*}: HTTP Basic users from configuration, and the JWT claim that carries roles. */
@Validated
@ConfigurationProperties("dlqdesk.security")
public record SecurityProperties(@DefaultValue({}) List<@Valid User> users, @NotBlank @DefaultValue("roles") String jwtRoleClaim) {

    /** A password is stored only as a hash, e.g. {@code {bcrypt}$2a$10$...}; plain text is refused. */
    public record User(@NotBlank String name,
                       @NotBlank @Pattern(regexp = "\\{(bcrypt|argon2|argon2@SpringSecurity_v5_8|pbkdf2|pbkdf2@SpringSecurity_v5_8|scrypt|scrypt@SpringSecurity_v5_8)}.+",
                               message = "must be a password hash with its {id} prefix, e.g. {bcrypt}..., never plain text") String passwordHash,
                       @NotEmpty Set<Role> roles) {
    }
}
