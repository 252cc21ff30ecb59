package io.dlqdesk.app;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every property the service ships with has a row in README.md's configuration table. */
class ShippedConfigurationIsDocumentedTest {

    @Test
    void everyShippedPropertyIsInTheReadme() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> keys = new ArrayList<>();
        try (InputStream yaml = getClass().getResourceAsStream("/application.yml")) {
            flatten("", new Yaml().load(yaml), keys);
        }

        assertThat(keys).hasSizeGreaterThan(20);
        List<String> undocumented = keys.stream()
                .filter(key -> !readme.contains("`" + key + "`"))
                .filter(key -> !(key.startsWith("logging.level.") && readme.contains("`logging.level.*`")))
                .toList();
        assertThat(undocumented).as("properties in application.yml without a README row").isEmpty();
    }

    /** Our @ConfigurationProperties, as the configuration processor describes them in every module's jar. */
    @Test
    void everyPropertyOfOurConfigurationClassesIsInTheReadme() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> names = new ArrayList<>();
        Enumeration<URL> metadata = getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (metadata.hasMoreElements()) {
            try (InputStream in = metadata.nextElement().openStream()) {
                for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                    String name = property.path("name").asText();
                    if (name.startsWith("dlqdesk.")) {
                        names.add(name);
                    }
                }
            }
        }

        assertThat(names).contains("dlqdesk.ingest.topic-pattern", "dlqdesk.retention.consumer-idempotency-retention",
                "dlqdesk.security.jwt-role-claim", "dlqdesk.replay-window");
        // list and map properties are documented by their element form (users[n].name, event-id-json-field.<topic>)
        assertThat(names).filteredOn(name -> !readme.contains("`" + name + "`") && !readme.contains("`" + name + "[n]")
                        && !readme.contains("`" + name + ".<"))
                .as("@ConfigurationProperties without a README row").isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object node, List<String> keys) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, keys));
        } else {
            keys.add(prefix);
        }
    }
}
