package io.dlqdesk.app;

import io.dlqdesk.ingest.config.IngestProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example manifest in {@code ops/kubernetes/} as Kubernetes reads it, checked against the shipped configuration: the
 * rolling update never takes an instance away before its replacement is ready, the probes ask the service's health
 * groups, and the grace period holds the preStop sleep and the service's own shutdown bound, which holds ingest's drain.
 */
class KubernetesManifestTest {

    static final Path MANIFEST = Path.of("..", "ops", "kubernetes", "dlq-incident-desk.yaml");

    private static Map<String, Object> deployment;
    private static Map<String, Object> budget;

    @BeforeAll
    static void read() throws Exception {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(MANIFEST))) {
            documents.add(map(document));
        }
        assertThat(documents).extracting(document -> document.get("kind")).containsExactly("Deployment", "PodDisruptionBudget");
        deployment = documents.get(0);
        budget = documents.get(1);
        assertThat(deployment.get("apiVersion")).isEqualTo("apps/v1");
        assertThat(budget.get("apiVersion")).isEqualTo("policy/v1");
    }

    @Test
    void theRollingUpdateStartsTheNewInstanceBeforeStoppingAnOldOne() {
        Map<String, Object> strategy = map(spec(deployment).get("strategy"));
        assertThat(strategy.get("type")).isEqualTo("RollingUpdate");
        assertThat(map(strategy.get("rollingUpdate"))).containsEntry("maxUnavailable", 0).containsEntry("maxSurge", 1);
        assertThat((Integer) spec(deployment).get("replicas")).as("instances").isGreaterThanOrEqualTo(2);
    }

    @Test
    void theBudgetSelectsThePodsAndLetsOneGoAtATime() {
        Map<String, Object> podLabels = map(map(template().get("metadata")).get("labels"));
        assertThat(podLabels).containsAllEntriesOf(map(map(spec(budget).get("selector")).get("matchLabels")));
        assertThat(podLabels).containsAllEntriesOf(map(map(spec(deployment).get("selector")).get("matchLabels")));
        assertThat(spec(budget)).containsEntry("maxUnavailable", 1).doesNotContainKey("minAvailable");
    }

    @Test
    void theProbesAskTheHealthGroupsOnTheServedPort() {
        Map<String, Object> container = container();
        Map<String, Object> port = map(((List<?>) container.get("ports")).get(0));
        assertThat(port).containsEntry("containerPort", 8080); // server.port's default: the shipped configuration sets none
        for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            Map<String, Object> get = map(map(container.get(probe)).get("httpGet"));
            assertThat(get.get("port")).as(probe).isEqualTo(port.get("name"));
            assertThat((String) get.get("path")).as(probe).isIn("/actuator/health/readiness", "/actuator/health/liveness");
        }
        assertThat(map(map(container.get("readinessProbe")).get("httpGet"))).containsEntry("path", "/actuator/health/readiness");
    }

    @Test
    void theGracePeriodHoldsThePreStopSleepAndTheServicesShutdownBoundWhichHoldsIngestsDrain() throws Exception {
        Binder shipped = ShippedDefaultsTest.shipped();
        Duration shutdownTimeout = shipped.bindOrCreate("dlqdesk.instances", InstanceProperties.class).shutdownTimeout();
        IngestProperties ingest = shipped.bindOrCreate("dlqdesk.ingest", IngestProperties.class);
        List<?> preStop = (List<?>) map(map(map(container().get("lifecycle")).get("preStop")).get("exec")).get("command");
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        Duration sleep = Duration.ofSeconds(Long.parseLong((String) preStop.get(1)));
        Duration grace = Duration.ofSeconds((Integer) podSpec().get("terminationGracePeriodSeconds"));

        assertThat(grace).as("Kubernetes' default grace period").isEqualTo(Duration.ofSeconds(30));
        assertThat(sleep.plus(shutdownTimeout)).as("preStop + shutdown-timeout").isLessThan(grace);
        // ingest's drain, then its commit and the group's leave (5 s), end before the service's own bound
        assertThat(ingest.drainTimeout().plus(Duration.ofSeconds(5))).as("drain-timeout + leave").isLessThan(shutdownTimeout);
        assertThat(shipped.bind("server.shutdown", String.class).orElse("graceful")).as("server.shutdown").isEqualTo("graceful");
    }

    private static Map<String, Object> template() {
        return map(spec(deployment).get("template"));
    }

    private static Map<String, Object> podSpec() {
        return map(template().get("spec"));
    }

    private static Map<String, Object> container() {
        List<?> containers = (List<?>) podSpec().get("containers");
        assertThat(containers).hasSize(1);
        return map(containers.get(0));
    }

    private static Map<String, Object> spec(Map<String, Object> document) {
        return map(document.get("spec"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        assertThat(node).isInstanceOf(Map.class);
        return (Map<String, Object>) node;
    }
}
