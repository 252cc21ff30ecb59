package io.dlqdesk.app;

import io.dlqdesk.operations.security.Role;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The local run's users are the README's: each signs in with {@code <name>-local}, holds its named role, and is listed there. */
class LocalUsersTest {

    @Test
    void everyLocalUserHasTheDocumentedPasswordAndRole() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder();
        assertThat(EmbeddedServersForLocalRun.LOCAL_USERS).hasSize(5);
        EmbeddedServersForLocalRun.LOCAL_USERS.values().forEach(user -> {
            assertThat(user[1]).startsWith("{bcrypt}");
            assertThat(bcrypt.matches(user[0] + "-local", user[1].substring("{bcrypt}".length()))).as(user[0]).isTrue();
            assertThat(Role.valueOf(user[2]).name().toLowerCase(java.util.Locale.ROOT)).isEqualTo(user[0]);
            assertThat(readme).contains("`" + user[0] + "` / `" + user[0] + "-local`");
        });
    }
}
