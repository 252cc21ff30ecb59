package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.app.DocumentedExamples.Assignment;
import io.dlqdesk.app.DocumentedExamples.Block;
import io.dlqdesk.app.DocumentedExamples.Example;
import io.dlqdesk.app.DocumentedExamples.NamedPath;
import io.dlqdesk.app.DocumentedExamples.Page;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.server.PathContainer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPatternParser;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pages cannot drift from the code: the service, started as README's tour starts it (the local run's users, the demo
 * data) on a real database and broker, answers every curl example of README.md and docs/*.md with the status the
 * example documents; every path the pages name is served; every relative link leads somewhere. The convention the pages
 * follow is in docs/README.md ("The examples are run").
 */
@RealInfrastructure
class DocumentedCommandsIT {

    private static final Path ROOT = Path.of("..");
    private static final String NO_CURL = "DocumentedCommandsIT runs the examples with bash and curl, not found here: sudo apt-get install -y curl";
    private static final Pattern INCIDENT_ID = Pattern.compile("\"incidentId\":\"(inc-[0-9a-f]{32})\"");
    private static final Pattern JOB_ID = Pattern.compile("\"jobId\":\"(job-[0-9a-f]{32})\"");
    /** Served by Spring Security's filters (ConsoleSecurity), not by a controller. */
    private static final Set<String> SECURITY_FILTER_PATHS = Set.of("/logout");
    private static final Duration AT_REST = Duration.ofSeconds(60);

    private static ConfigurableApplicationContext app;
    private static KafkaBroker kafka;
    private static String nonce;
    private static String base;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        kafka = broker;
        nonce = Long.toHexString(System.nanoTime());
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
        properties.put("server.port", "0");
        properties.put(DemoFailures.ENABLED, "true");
        // the demo's DLQs only, read by a group of this class: other classes' topics and positions on the shared broker stay theirs
        properties.put("dlqdesk.ingest.topic-pattern", "demo\\..*\\.dlq");
        properties.put("dlqdesk.ingest.group-id", "it-docs-ingest-" + nonce);
        properties.put("dlqdesk.events-topic", "it-docs-" + nonce + "-incident-events");
        // the local run's listeners: with a database and a broker given, they add only its users and its loopback address
        app = new SpringApplicationBuilder(DlqDeskApplication.class).listeners(new EmbeddedServersForLocalRun(), new DemoFailures())
                .run(RunningApp.arguments(properties));
        base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void everyCurlExampleAnswersTheStatusItDocuments() throws Exception {
        assumeTrue(commandWorks("curl", "--version") && commandWorks("bash", "-c", "true"), NO_CURL);
        List<Block> blocks = DocumentedExamples.pages(ROOT).stream().flatMap(page -> DocumentedExamples.blocks(page).stream()).toList();
        List<Example> examples = blocks.stream().flatMap(block -> block.steps().stream())
                .filter(Example.class::isInstance).map(Example.class::cast).toList();
        assertThat(examples).as("curl examples in the pages' bash blocks").hasSizeGreaterThan(40);
        assertThat(examples).filteredOn(example -> example.expected().isEmpty()).extracting(Example::where)
                .as("examples whose comment does not start with the status they answer").isEmpty();

        Map<Block, Map<String, String>> fresh = freshIncidentsFor(blocks);
        List<String> wrong = new ArrayList<>();
        Map<String, String> assigned = new LinkedHashMap<>(); // A=…: for the rest of the page, as in a reader's shell
        Page page = null;
        for (Block block : blocks) {
            if (block.page() != page) {
                page = block.page();
                assigned.clear();
            }
            Map<String, String> variables = new LinkedHashMap<>(fresh.getOrDefault(block, Map.of()));
            for (Object step : block.steps()) {
                if (step instanceof Assignment assignment && !Set.of("ID", "PAY", "JOB").contains(assignment.name())) {
                    assigned.put(assignment.name(), local(assignment.value()));
                } else if (step instanceof Example example) {
                    awaitRest(example);
                    if (example.command().contains("$JOB")) {
                        variables.put("JOB", newestJob());
                    }
                    Map<String, String> all = new LinkedHashMap<>(assigned);
                    all.putAll(variables);
                    Answer answer = run(example, all);
                    if (!example.expected().contains(answer.status())) {
                        wrong.add(example.where() + " documents " + example.expected() + ", answered " + answer + "\n    " + example.command());
                    }
                }
            }
        }
        assertThat(wrong).as("examples that do not answer as documented").isEmpty();
    }

    @Test
    void everyPathThePagesNameIsServed() throws Exception {
        JsonNode api = new ObjectMapper().readTree(get("/v3/api-docs").body()).path("paths");
        Map<String, Set<String>> operations = new LinkedHashMap<>();
        api.fieldNames().forEachRemaining(path -> {
            Set<String> methods = new HashSet<>();
            api.path(path).fieldNames().forEachRemaining(method -> methods.add(method.toUpperCase(Locale.ROOT)));
            operations.put(path, methods);
        });
        List<String> mappings = app.getBeansOfType(RequestMappingInfoHandlerMapping.class).values().stream()
                .flatMap(mapping -> mapping.getHandlerMethods().keySet().stream())
                .flatMap(info -> info.getPatternValues().stream()).distinct().toList();
        assertThat(operations).as("the OpenAPI document").containsKey("/api/v1/incidents/{id}");

        List<NamedPath> named = DocumentedExamples.pages(ROOT).stream().flatMap(page -> DocumentedExamples.paths(page).stream()).toList();
        assertThat(named).as("paths named in the pages").hasSizeGreaterThan(50);
        List<String> unknown = new ArrayList<>();
        for (NamedPath path : named) {
            if (path.path().equals("/api/v1") || SECURITY_FILTER_PATHS.contains(path.path())) {
                continue; // the API's base, named as such; or a path no controller serves
            }
            for (String concrete : DocumentedExamples.concrete(path.path())) {
                boolean served = concrete.startsWith("/api/v1/")
                        ? operations.entrySet().stream().anyMatch(operation -> matches(operation.getKey(), concrete)
                                && (path.method() == null || operation.getValue().contains(path.method())))
                        : mappings.stream().anyMatch(pattern -> matches(pattern, concrete));
                if (!served) {
                    unknown.add(path.page().name() + ": " + (path.method() == null ? "" : path.method() + " ") + path.path()
                            + (concrete.equals(path.path()) ? "" : " (as " + concrete + ")"));
                }
            }
        }
        assertThat(unknown).as("paths the service does not serve (API paths looked up in /v3/api-docs, others in the request mappings)")
                .isEmpty();
    }

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeading() {
        List<Page> pages = DocumentedExamples.pages(ROOT);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Page page : pages) {
            for (String link : DocumentedExamples.relativeLinks(page)) {
                links++;
                String file = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
                String anchor = link.contains("#") ? link.substring(link.indexOf('#') + 1) : "";
                Path target = file.isEmpty() ? page.file() : page.file().getParent().resolve(file).normalize();
                if (!Files.exists(target)) {
                    broken.add(page.name() + ": " + link + " (no file " + target + ")");
                } else if (!anchor.isEmpty() && !DocumentedExamples.anchors(DocumentedExamples.page(ROOT, target)).contains(anchor)) {
                    broken.add(page.name() + ": " + link + " (no heading with that anchor in " + target.getFileName() + ")");
                }
            }
        }
        assertThat(links).as("relative links in the pages").isGreaterThan(40);
        assertThat(broken).isEmpty();
    }

    /** {@code /console/**}: anything served below {@code /console/}; otherwise the pattern matches the concrete path. */
    private static boolean matches(String pattern, String path) {
        if (path.endsWith("/**")) {
            return pattern.startsWith(path.substring(0, path.length() - 2));
        }
        return PathPatternParser.defaultInstance.parse(pattern).matches(PathContainer.parsePath(path));
    }

    /**
     * For every block that uses them, a new incident of each demo service: the test sends a failing order (SKU-404) and a
     * declined payment (card 4000) through the demo's own services, all before the first command, and waits for them.
     */
    private static Map<Block, Map<String, String>> freshIncidentsFor(List<Block> blocks) throws Exception {
        Map<Block, Map<String, String>> eventIds = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            int n = 0;
            for (Block block : blocks) {
                if (block.uses("ID") || block.uses("PAY")) {
                    n++;
                    String order = "order-docs-" + nonce + "-" + n;
                    String payment = "pay-docs-" + nonce + "-" + n;
                    send(producer, DemoFailures.ORDERS, order, "{\"order\":\"" + order + "\",\"sku\":\"SKU-404\",\"qty\":1}");
                    send(producer, DemoFailures.PAYMENTS, payment, "{\"payment\":\"" + payment + "\",\"card\":\"4000-xxxx\",\"amount\":\"9.99\"}");
                    eventIds.put(block, Map.of("ID", "evt-" + order, "PAY", "evt-" + payment));
                }
            }
            producer.flush();
        }
        Map<Block, Map<String, String>> incidents = new LinkedHashMap<>();
        for (Map.Entry<Block, Map<String, String>> block : eventIds.entrySet()) {
            Map<String, String> ids = new LinkedHashMap<>();
            for (Map.Entry<String, String> variable : block.getValue().entrySet()) {
                ids.put(variable.getKey(), await().atMost(Duration.ofSeconds(120)).until(() -> incidentWithEventId(variable.getValue()),
                        id -> id != null));
            }
            incidents.put(block.getKey(), ids);
        }
        return incidents;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, String value) throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        record.headers().add("eventId", ("evt-" + key).getBytes(StandardCharsets.UTF_8));
        producer.send(record).get(30, TimeUnit.SECONDS);
    }

    private static String incidentWithEventId(String eventId) throws Exception {
        Matcher id = INCIDENT_ID.matcher(get("/api/v1/incidents?eventId=" + eventId).body());
        return id.find() ? id.group(1) : null;
    }

    /** The newest replay job (the list is newest first), as a reader copies it from the Location of the POST that made it. */
    private static String newestJob() throws Exception {
        String body = get("/api/v1/replay-jobs").body();
        Matcher id = JOB_ID.matcher(body);
        assertThat(id.find()).as("a replay job for $JOB: " + body).isTrue();
        return id.group(1);
    }

    /**
     * As a reader who waits a moment between commands: no replay waiting for its publish result, no replay job running,
     * every event processor at the event store's head.
     */
    private static void awaitRest(Example before) {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        await().atMost(AT_REST).alias("the service at rest before " + before.where()).until(() -> {
            Long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
            return count(jdbc, "SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'") == 0
                    && count(jdbc, "SELECT COUNT(*) FROM replay_attempt WHERE status = 'REQUESTED'") == 0
                    && count(jdbc, "SELECT COUNT(*) FROM replay_job WHERE status = 'RUNNING'") == 0
                    && processing.eventProcessors().values().stream().filter(StreamingEventProcessor.class::isInstance)
                    .map(StreamingEventProcessor.class::cast).allMatch(processor -> reached(processor, head == null ? -1 : head));
        });
    }

    private static boolean reached(StreamingEventProcessor processor, long head) {
        var statuses = processor.processingStatus().values();
        return !statuses.isEmpty() && statuses.stream().allMatch(status -> !status.isErrorState()
                && status.getCurrentPosition().orElse(-1) >= head);
    }

    private static int count(JdbcTemplate jdbc, String sql) {
        Integer count = jdbc.queryForObject(sql, Integer.class);
        return count == null ? 0 : count;
    }

    /** What a command answered: its status, or what kept it from answering. */
    private record Answer(int status, String body, String error) {
        @Override
        public String toString() {
            return status + (error.isBlank() ? "" : " (" + error.strip() + ")") + ": " + body.substring(0, Math.min(body.length(), 400));
        }
    }

    /**
     * The command as written, in bash, with the local run's address rewritten and the variables set; {@code curl} is a
     * function that records the status and keeps the body, so quoting, {@code -d}, {@code -X} and {@code -u} are curl's own.
     */
    private static Answer run(Example example, Map<String, String> variables) throws Exception {
        Path body = Files.createTempFile("documented-", ".body");
        try {
            StringBuilder script = new StringBuilder("set -u\n");
            variables.forEach((name, value) -> script.append(name).append("='").append(value).append("'\n"));
            script.append("curl() { command curl -sS --max-time 60 -o \"$BODY\" -w '%{http_code}' \"$@\"; }\n");
            script.append(local(example.command())).append('\n');
            ProcessBuilder bash = new ProcessBuilder("bash", "-c", script.toString());
            bash.environment().put("BODY", body.toString());
            Process process = bash.start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Answer(-1, "", "no answer within 90 s");
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            String answer = Files.readString(body);
            return out.matches("\\d{3}") ? new Answer(Integer.parseInt(out), answer, err)
                    : new Answer(-1, answer, "exit " + process.exitValue() + ", printed '" + out + "' " + err);
        } finally {
            Files.deleteIfExists(body);
        }
    }

    private static String local(String text) {
        return text.replace(DocumentedExamples.LOCAL_RUN, base);
    }

    private static boolean commandWorks(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** As the local run's viewer. */
    private static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString("viewer:viewer-local".getBytes(StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
