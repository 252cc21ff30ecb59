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

/** Every property the service ships with has a row in the configuration table, docs/configuration.md. */
class ShippedConfigurationIsDocumentedTest {

    private static final Path TABLE = Path.of("..", "docs", "configuration.md");

    @Test
    void everyShippedPropertyIsInTheConfigurationTable() throws IOException {
        String table = configurationTable();
        List<String> keys = new ArrayList<>();
        try (InputStream yaml = getClass().getResourceAsStream("/application.yml")) {
            flatten("", new Yaml().load(yaml), keys);
        }

        assertThat(keys).hasSizeGreaterThan(20);
        List<String> undocumented = keys.stream()
                .filter(key -> !table.contains("`" + key + "`"))
                .filter(key -> !(key.startsWith("logging.level.") && table.contains("`logging.level.*`")))
                .toList();
        assertThat(undocumented).as("properties in application.yml without a row in " + TABLE).isEmpty();
    }

    /** Our @ConfigurationProperties, as the configuration processor describes them in every module's jar. */
    @Test
    void everyPropertyOfOurConfigurationClassesIsInTheConfigurationTable() throws IOException {
        String table = configurationTable();
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
        // list and map properties are documented by their element form (users[n].name, event-id-json-field.<topic>,
        // dlq-topics[<dlq topic>].dialect: brackets where the key holds dots)
        assertThat(names).filteredOn(name -> !table.contains("`" + name + "`") && !table.contains("`" + name + "[n]")
                        && !table.contains("`" + name + ".<") && !table.contains("`" + name + "[<"))
                .as("@ConfigurationProperties without a row in " + TABLE).isEmpty();
    }

    /** The table's rows only: a property named elsewhere in the page does not count as documented. */
    private static String configurationTable() throws IOException {
        return String.join("\n", Files.readAllLines(TABLE).stream().filter(line -> line.startsWith("| `")).toList());
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
