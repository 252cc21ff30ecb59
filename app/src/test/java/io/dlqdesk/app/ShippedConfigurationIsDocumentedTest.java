package io.dlqdesk.app;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object node, List<String> keys) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, keys));
        } else {
            keys.add(prefix);
        }
    }
}
