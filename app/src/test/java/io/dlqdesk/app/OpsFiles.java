package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What ships in {@code ops/}: the Prometheus rule file, read with SnakeYAML and checked against the rule-file format
 * (groups of rules, each an alert with expr, an optional for, a severity label, a summary and a description), and the
 * Grafana dashboard's queries. {@link #metricNamesIn} collects the metric names every query uses (through {@link PromQl})
 * and the {@code dlq_…} names their texts point people at, to be checked against a live scrape.
 */
final class OpsFiles {

    static final Path ALERTS = Path.of("..", "ops", "prometheus", "alerts.yml");
    static final Path DASHBOARD = Path.of("..", "ops", "grafana", "dlq-incident-desk.json");
    static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");

    private static final Set<String> GROUP_KEYS = Set.of("name", "interval", "limit", "rules", "query_offset", "labels");
    private static final Set<String> RULE_KEYS = Set.of("alert", "record", "expr", "for", "keep_firing_for", "labels", "annotations");
    private static final Pattern ALERT_NAME = Pattern.compile("[A-Z][A-Za-z0-9]+");
    private static final Pattern PROMETHEUS_DURATION = Pattern.compile("(?:[0-9]+(?:ms|s|m|h|d|w|y))+");
    private static final Pattern MENTIONED = Pattern.compile("\\bdlq_[a-z0-9_]+");
    private static final Pattern TEMPLATE_LABEL = Pattern.compile("\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");

    private OpsFiles() {
    }

    /** One alert rule as shipped. */
    record Rule(String group, String alert, String expr, Duration pending, String severity, String summary, String description) {
    }

    /** One dashboard query: its panel and its expression. */
    record Query(String panel, String expr) {
    }

    static List<Rule> alertRules() throws IOException {
        return alertRules(Files.readString(ALERTS));
    }

    /** The rules of a rule file; anything that is not a well-formed alerting rule file is an {@link IllegalArgumentException}. */
    @SuppressWarnings("unchecked")
    static List<Rule> alertRules(String yaml) {
        Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        if (!(root instanceof Map<?, ?> file) || !Set.of("groups").equals(file.keySet()) || !(file.get("groups") instanceof List<?> groups)
                || groups.isEmpty()) {
            throw new IllegalArgumentException("a rule file is a map with one key, groups: a non-empty list");
        }
        List<Rule> rules = new ArrayList<>();
        Set<String> groupNames = new TreeSet<>();
        Set<String> alertNames = new TreeSet<>();
        for (Object groupNode : groups) {
            Map<String, Object> group = map(groupNode, "a group");
            unknownKeys(group, GROUP_KEYS, "group");
            String name = text(group.get("name"), "a group's name");
            if (!groupNames.add(name)) {
                throw new IllegalArgumentException("group " + name + " twice");
            }
            if (!(group.get("rules") instanceof List<?> groupRules) || groupRules.isEmpty()) {
                throw new IllegalArgumentException("group " + name + " needs a non-empty rules list");
            }
            for (Object ruleNode : groupRules) {
                Map<String, Object> rule = map(ruleNode, "a rule of " + name);
                unknownKeys(rule, RULE_KEYS, "rule");
                String alert = text(rule.get("alert"), "a rule's alert name (this file holds alerting rules only)");
                if (!ALERT_NAME.matcher(alert).matches() || !alertNames.add(alert)) {
                    throw new IllegalArgumentException("alert " + alert + ": names are UpperCamelCase and unique");
                }
                String expr = text(rule.get("expr"), alert + "'s expr");
                Duration pending = rule.containsKey("for") ? duration(rule.get("for"), alert) : Duration.ZERO;
                Map<String, Object> labels = map(rule.get("labels"), alert + "'s labels");
                String severity = text(labels.get("severity"), alert + "'s severity label");
                if (!SEVERITIES.contains(severity)) {
                    throw new IllegalArgumentException(alert + ": severity must be one of " + SEVERITIES + ", was " + severity);
                }
                Map<String, Object> annotations = map(rule.get("annotations"), alert + "'s annotations");
                String summary = text(annotations.get("summary"), alert + "'s summary");
                String description = text(annotations.get("description"), alert + "'s description");
                for (String template : List.of(summary, description)) {
                    if (count(template, "{{") != count(template, "}}")) {
                        throw new IllegalArgumentException(alert + ": unbalanced {{ }} in " + template);
                    }
                }
                rules.add(new Rule(name, alert, expr, pending, severity, summary, description));
            }
        }
        return rules;
    }

    /** Every expr of every panel target, nested rows included. */
    static List<Query> dashboardQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        List<Query> queries = new ArrayList<>();
        collect(dashboard.path("panels"), queries);
        return queries;
    }

    private static void collect(JsonNode panels, List<Query> queries) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(panel.path("title").asText(), target.path("expr").asText()));
            }
            collect(panel.path("panels"), queries);
        }
    }

    /** Per query (named), the metric names it uses: its selectors, and the dlq_ names its texts mention. */
    static Map<String, Set<String>> metricNamesIn(List<Rule> rules, List<Query> queries) {
        Map<String, Set<String>> used = new LinkedHashMap<>();
        for (Rule rule : rules) {
            Set<String> names = new TreeSet<>(PromQl.metricNames(rule.expr()));
            for (String text : List.of(rule.summary(), rule.description())) {
                Matcher mentioned = MENTIONED.matcher(text);
                while (mentioned.find()) {
                    names.add(mentioned.group());
                }
            }
            used.put("alert " + rule.alert(), names);
        }
        for (Query query : queries) {
            used.merge("panel " + query.panel(), new TreeSet<>(PromQl.metricNames(query.expr())), (a, b) -> {
                a.addAll(b);
                return a;
            });
        }
        return used;
    }

    /** The labels a rule's templates read ({@code $labels.x}). */
    static Set<String> templateLabels(Rule rule) {
        Set<String> labels = new TreeSet<>();
        Matcher matcher = TEMPLATE_LABEL.matcher(rule.summary() + " " + rule.description());
        while (matcher.find()) {
            labels.add(matcher.group(1));
        }
        return labels;
    }

    /** The metric names in a Prometheus text scrape: every sample's name. */
    static Set<String> scrapedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int end = 0;
                while (end < line.length() && (Character.isLetterOrDigit(line.charAt(end)) || line.charAt(end) == '_' || line.charAt(end) == ':')) {
                    end++;
                }
                names.add(line.substring(0, end));
            }
        }
        return names;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node, String what) {
        if (!(node instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(what + " must be a map, was " + node);
        }
        return (Map<String, Object>) map;
    }

    private static String text(Object node, String what) {
        if (!(node instanceof String text) || text.isBlank()) {
            throw new IllegalArgumentException(what + " must be a non-blank string, was " + node);
        }
        return text;
    }

    private static Duration duration(Object node, String alert) {
        String text = String.valueOf(node);
        if (!PROMETHEUS_DURATION.matcher(text).matches()) {
            throw new IllegalArgumentException(alert + ": for must be a Prometheus duration (5m, 1h30m), was " + text);
        }
        Duration total = Duration.ZERO;
        Matcher part = Pattern.compile("([0-9]+)(ms|s|m|h|d|w|y)").matcher(text);
        while (part.find()) {
            long n = Long.parseLong(part.group(1));
            total = total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                case "w" -> Duration.ofDays(7 * n);
                default -> Duration.ofDays(365 * n);
            });
        }
        return total;
    }

    private static void unknownKeys(Map<String, Object> node, Set<String> allowed, String what) {
        Set<String> unknown = new TreeSet<>(node.keySet());
        unknown.removeAll(allowed);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown " + what + " keys " + unknown + " (allowed: " + new TreeSet<>(allowed) + ")");
        }
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
