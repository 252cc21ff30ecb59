package io.dlqdesk.app;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shipped alert rules and dashboard, read as Prometheus and Grafana read them (structure, PromQL shape, templates);
 * PrometheusIT checks their metric names against a live scrape. Each refusal of the checker is paired with what it allows.
 */
class AlertRulesTest {

    /** The alerts issue #21 asks for, by what they are about. */
    private static final Set<String> REQUIRED = Set.of("DlqIncidentReopened", "DlqNewExceptionGroup", "DlqIngestNotReady", "DlqIngestLagGrowing",
            "DlqReplayOutboxRowStuck", "DlqProcessorLagging", "DlqRetentionFlagged", "DlqRollbackCheckUnknown", "DlqEventsParked");
    private static final Pattern BY = Pattern.compile("\\b(?:by|on)\\s*\\(([^)]*)\\)");
    private static final Pattern AGGREGATION = Pattern.compile("\\b(?:sum|max|min|avg|count|topk|bottomk)\\s*(?:\\(|by|without)");

    @Test
    void theShippedRuleFileHasEveryAlertWithASeveritySummaryAndDescription() throws Exception {
        List<OpsFiles.Rule> rules = OpsFiles.alertRules();
        assertThat(rules).extracting(OpsFiles.Rule::alert).containsAll(REQUIRED);
        assertThat(rules).allSatisfy(rule -> {
            assertThat(rule.description().length()).as(rule.alert() + " says what to look at").isGreaterThan(100);
            assertThat(OpsFiles.SEVERITIES).contains(rule.severity());
        });
        Map<String, Duration> pending = rules.stream().collect(Collectors.toMap(OpsFiles.Rule::alert, OpsFiles.Rule::pending));
        // a state must last before it pages; an event (a counter's increase) fires as it happens
        assertThat(pending.get("DlqIngestNotReady")).isBetween(Duration.ofMinutes(1), Duration.ofMinutes(10));
        assertThat(pending.get("DlqIngestLagGrowing")).isGreaterThanOrEqualTo(Duration.ofMinutes(5));
        assertThat(pending.get("DlqReplayOutboxRowStuck")).isPositive();
        assertThat(pending.get("DlqProcessorLagging")).isPositive();
        assertThat(pending.get("DlqEventsParked")).isPositive();
        assertThat(pending.get("DlqRollbackCheckUnknown")).isGreaterThanOrEqualTo(Duration.ofMinutes(15));
        assertThat(pending.get("DlqIncidentReopened")).isZero();
        assertThat(rules).filteredOn(rule -> rule.alert().equals("DlqIngestNotReady")).extracting(OpsFiles.Rule::severity).containsOnly("critical");
    }

    @Test
    void everyQueryIsPromQlOnTheDesksOwnMetrics() throws Exception {
        Map<String, Set<String>> used = OpsFiles.metricNamesIn(OpsFiles.alertRules(), OpsFiles.dashboardQueries());
        assertThat(used).hasSizeGreaterThan(20);
        assertThat(used).allSatisfy((query, names) -> assertThat(names).as(query).isNotEmpty().allMatch(name -> name.startsWith("dlq_")));
    }

    @Test
    void aTemplateReadsOnlyLabelsItsExpressionKeeps() throws Exception {
        for (OpsFiles.Rule rule : OpsFiles.alertRules()) {
            Set<String> read = OpsFiles.templateLabels(rule);
            if (!AGGREGATION.matcher(rule.expr()).find()) {
                continue; // no aggregation: every label of the series is kept
            }
            Set<String> kept = new TreeSet<>();
            Matcher by = BY.matcher(rule.expr());
            while (by.find()) {
                for (String label : by.group(1).split(",")) {
                    kept.add(label.strip());
                }
            }
            assertThat(kept).as(rule.alert() + " reads " + read + " in its texts").containsAll(read);
        }
    }

    @Test
    void theDashboardQueriesEveryPanelHas() throws Exception {
        List<OpsFiles.Query> queries = OpsFiles.dashboardQueries();
        assertThat(queries).hasSizeGreaterThan(15).allSatisfy(query -> assertThat(query.expr()).as(query.panel()).isNotBlank());
    }

    @Test
    void metricNamesAreTheSelectorsNotTheLabelsFunctionsOrDurations() {
        assertThat(PromQl.metricNames("sum by (outcome) (rate(dlq_ingest_records_total{outcome=~\"ingested|quarantined\", job!=\"x\"}[$__rate_interval]))"))
                .containsExactly("dlq_ingest_records_total");
        assertThat(PromQl.metricNames("sum(a_total) > 1000 and sum(delta(b[15m])) > 0 unless on (instance) group_left (x) c offset 1h"))
                .containsExactly("a_total", "b", "c");
        assertThat(PromQl.metricNames("max(max_over_time(x[1h:5m])) by (topic) / ignoring (job) y @ end() * 2e3 - Inf"))
                .containsExactly("x", "y");
        assertThat(PromQl.metricNames("{__name__=\"named\", topic=\"t\"} == bool 2")).containsExactly("named");
        assertThat(PromQl.metricNames("topk(10, sum by (topic) (max by (topic, group, status) (dlq_incidents_open)))  # a comment"))
                .containsExactly("dlq_incidents_open");
        assertThat(PromQl.metricNames("label_replace(up, \"dst\", \"$1\", \"src\", \"(.*)\")")).containsExactly("up");
    }

    @Test
    void aQueryThatIsNotPromQlIsRefused() {
        assertThatThrownBy(() -> PromQl.metricNames("rat(dlq_x[5m])")).hasMessageContaining("unknown function 'rat'");
        assertThat(PromQl.metricNames("rate(dlq_x[5m])")).containsExactly("dlq_x");
        assertThatThrownBy(() -> PromQl.metricNames("dlq_x dlq_y")).hasMessageContaining("expected");
        assertThat(PromQl.metricNames("dlq_x + dlq_y")).containsExactly("dlq_x", "dlq_y");
        assertThatThrownBy(() -> PromQl.metricNames("sum(dlq_x")).hasMessageContaining("unclosed");
        assertThatThrownBy(() -> PromQl.metricNames("dlq_x[5x]")).hasMessageContaining("neither a number nor a duration");
        assertThatThrownBy(() -> PromQl.metricNames("dlq_x[5]")).hasMessageContaining("a duration");
        assertThatThrownBy(() -> PromQl.metricNames("dlq_x{topic=orders}")).hasMessageContaining("expected string");
        assertThatThrownBy(() -> PromQl.metricNames("dlq_x >")).hasMessageContaining("an operand");
        assertThatThrownBy(() -> PromQl.metricNames("sum by (x)")).hasMessageContaining("'('");
        assertThatThrownBy(() -> PromQl.metricNames("1 + 2")).hasMessageContaining("selects no metric");
    }

    @Test
    void aRuleFileThatIsNotWellFormedIsRefused() {
        String rule = """
                groups:
                  - name: g
                    rules:
                      - alert: SomethingWrong
                        expr: dlq_x > 0
                        for: %s
                        labels: {severity: %s}
                        annotations: {summary: "s", description: "d"}%s
                """;
        assertThat(OpsFiles.alertRules(rule.formatted("5m", "warning", ""))).singleElement()
                .satisfies(parsed -> assertThat(parsed.pending()).isEqualTo(Duration.ofMinutes(5)));
        assertThatThrownBy(() -> OpsFiles.alertRules(rule.formatted("5 minutes", "warning", ""))).hasMessageContaining("Prometheus duration");
        assertThatThrownBy(() -> OpsFiles.alertRules(rule.formatted("5m", "page-me", ""))).hasMessageContaining("severity");
        assertThatThrownBy(() -> OpsFiles.alertRules(rule.formatted("5m", "warning", "\n        fore: 1m"))).hasMessageContaining("unknown rule keys [fore]");
        assertThatThrownBy(() -> OpsFiles.alertRules("rules: []")).hasMessageContaining("groups");
    }
}
