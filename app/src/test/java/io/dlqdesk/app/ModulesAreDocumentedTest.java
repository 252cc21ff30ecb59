package io.dlqdesk.app;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module table of {@code docs/concepts.md} names exactly the modules the build has, and {@link ModuleBoundariesTest}
 * gives each of them (but the benchmarks and the tests' DLQ writers, which nothing may use and whose classes are on no
 * classpath of ours) a layer: a module added, renamed or dropped without
 * its line in the docs and its edges fails here.
 */
class ModulesAreDocumentedTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern POM_MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\| `([a-z-]+)` \\|");
    private static final Pattern LAYER = Pattern.compile("\\.layer\\(\"([a-z-]+)\"\\)");

    @Test
    void theDocsListEveryModuleOfTheBuildAndNoOther() throws IOException {
        assertThat(modulesTable()).as("docs/concepts.md, section Modules").containsExactlyInAnyOrderElementsOf(buildModules());
    }

    @Test
    void everyModuleButTheBenchmarksAndTheDlqWritersHasItsLayer() throws IOException {
        Set<String> modules = buildModules();
        modules.remove("bench");
        modules.remove("dlq-writers"); // run by the ITs in JVMs of their own, from its target/
        assertThat(found(LAYER, Files.readString(ROOT.resolve("app/src/test/java/io/dlqdesk/app/ModuleBoundariesTest.java"))))
                .containsExactlyInAnyOrderElementsOf(modules);
    }

    private static Set<String> buildModules() throws IOException {
        Set<String> modules = found(POM_MODULE, Files.readString(ROOT.resolve("pom.xml")));
        assertThat(modules).as("the parent pom's modules").isNotEmpty();
        return modules;
    }

    private static Set<String> modulesTable() throws IOException {
        String concepts = Files.readString(ROOT.resolve("docs/concepts.md"));
        int start = concepts.indexOf("\n## Modules\n");
        assertThat(start).as("docs/concepts.md has a section '## Modules'").isNotNegative();
        int end = concepts.indexOf("\n## ", start + 1);
        return found(TABLE_ROW, concepts.substring(start, end < 0 ? concepts.length() : end));
    }

    private static Set<String> found(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}
