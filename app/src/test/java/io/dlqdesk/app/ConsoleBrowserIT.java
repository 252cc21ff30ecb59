package io.dlqdesk.app;

import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium at the installed
 * driver: nothing is downloaded), on the real database and broker, the service started once for the class. Incidents
 * come from real DLQ records on the broker. Each page is photographed under {@code app/target/console-screenshots/}.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {

    static final String CHROMEDRIVER = System.getProperty("console.chromedriver", "/usr/bin/chromedriver");
    static final String CHROMIUM = System.getProperty("console.chromium", "/usr/bin/chromium");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Parking after bounded retries, and what follows it, on a processor whose failed segments back off (see its use). */
    private static final Duration PARKING = Duration.ofMinutes(3);
    private static final String NONCE = "c" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "billing";
    private static final String SCRIPT = "<script>window.injected='script'</script>";
    private static final String IMG = "\"><img src=x onerror=\"window.injected='img'\">";

    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;
    private static ChromeDriver browser;
    private static Path profile;
    private static String base;
    private static KafkaBroker kafka;

    private static final boolean BROWSER = new File(CHROMEDRIVER).canExecute() && new File(CHROMIUM).canExecute();
    private static final String NO_BROWSER = "ConsoleBrowserIT needs a headless Chromium and its driver, not found at " + CHROMIUM
            + " and " + CHROMEDRIVER + ": install them with `sudo apt-get install -y chromium chromium-driver` (Debian/Ubuntu;"
            + " .ci/run does this), or point -Dconsole.chromium=… and -Dconsole.chromedriver=… at yours";

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        if (!BROWSER) {
            System.err.println("[ConsoleBrowserIT] skipped: " + NO_BROWSER);
            return; // each test is skipped with the message (a class-level assumption would be reported as no test at all)
        }
        kafka = broker;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        Map<String, Object> settings = new HashMap<>(Map.of(
                "dlqdesk.replay.allowed-topics", "it-.*",
                "dlqdesk.replay.poll-interval", "200ms",
                "dlqdesk.console.refresh-interval", "2s",
                "dlqdesk.rollback.observation-interval", "200ms"));
        RunningApp.user(settings, 5, "editor", "EDITOR");
        RunningApp.user(settings, 6, "approver", "APPROVER");
        app = Replays.service(database, broker, NONCE, settings);
        producer = IngestLedger.producer(broker, Map.of());
        base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        Files.createDirectories(SCREENSHOTS);
        profile = Files.createTempDirectory("console-browser-it");
        browser = chromium(profile);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (producer != null) {
            producer.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void needsABrowser() {
        assumeTrue(BROWSER, NO_BROWSER);
    }

    @AfterEach
    void signOut() {
        if (browser != null) {
            browser.manage().deleteAllCookies();
        }
    }

    /** Headless, sandbox off (CI runs as root), no background traffic of its own, a fresh profile. */
    static ChromeDriver chromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-default-apps", "--metrics-recording-only", "--disable-features=Translate,OptimizationHints,MediaRouter",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1400,1100", "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    // ---------------------------------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void aViewerSeesIncidentsFromRealDlqRecordsButNoActionAndADirectPostIsRefused() throws Exception {
        String id = replayableIncident("viewer");
        signIn("viewer");
        open("/console/incidents?topic=" + ORDERS);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            browser.navigate().refresh();
            assertThat(browser.findElements(By.cssSelector("tr[data-incident='" + id + "']"))).hasSize(1);
        });
        screenshot("incidents");
        browser.findElement(By.cssSelector("tr[data-incident='" + id + "'] a")).click();
        assertThat(text("#incident-id")).isEqualTo(id);
        assertThat(text("#incident-status")).isEqualTo("OPEN");
        assertThat(text("#incident-event-id")).isEqualTo("evt-viewer-" + NONCE);
        assertThat(browser.findElements(By.cssSelector("[id^='action-']"))).as("no action for a viewer").isEmpty();
        assertThat(browser.findElements(By.tagName("dialog"))).isEmpty();

        // the same POST the operator's form sends, from the viewer's own session with a valid CSRF token: refused
        HttpResponse<String> direct = postFromBrowserSession("/console/incidents/" + id + "/acknowledge", "reason=viewer tries");
        assertThat(direct.statusCode()).isEqualTo(403);
        browser.navigate().refresh();
        assertThat(text("#incident-status")).isEqualTo("OPEN");
    }

    @Test
    @Order(2)
    void anOperatorAcknowledgesWithAReasonThenReplaysAndSeesTheAttemptPublished() throws Exception {
        String id = replayableIncident("operator");
        signIn("operator");
        openIncident(id);
        act("acknowledge", "looking into the price service");
        assertThat(text("#notice-done")).isEqualTo("Acknowledged.");
        // the read model follows the event store within moments: the page polls until it shows the change, no reload
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#incident-status")).isEqualTo("ACKED"));
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#history")).contains("IncidentAcknowledged", "operator",
                "looking into the price service"));

        act("replay", "price service fixed in 1.4.2");
        assertThat(text("#notice-done")).contains("attempt 1");
        // the attempts poll themselves while one waits: no reload
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).ignoreExceptions().untilAsserted(() ->
                assertThat(text("#attempts tr[data-attempt='1'] .attempt-status")).isEqualTo("PUBLISHED"));
        assertThat(text("#attempts tr[data-attempt='1']")).contains("PUBLISHED at " + ORDERS + "/0@", "operator", "price service fixed in 1.4.2");
        screenshot("incident");
        copyToDocs("incident");
    }

    @Test
    @Order(3)
    void anAdminTurnsTheSwitchOffAndAReplayIsRefusedSayingWhy() throws Exception {
        String id = replayableIncident("switch");
        signIn("admin");
        try {
            open("/console/replay-switch");
            assertThat(text("#switch-state")).isEqualTo("ON");
            act("switch", "freeze before the consumer deploy");
            assertThat(text("#switch-state")).isEqualTo("OFF");
            assertThat(text("#switch-changes")).contains("freeze before the consumer deploy", "admin");
            screenshot("replay-switch");

            openIncident(id);
            act("replay", "try while frozen");
            assertThat(text("#notice-refused")).contains("The replay switch is off", "REPLAY_SWITCH_OFF");
            screenshot("incident-refused");
            assertThat(browser.findElements(By.cssSelector("#attempts"))).isEmpty();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                openIncident(id);
                assertThat(text("#history")).contains("ReplayRejected", "REPLAY_SWITCH_OFF");
            });
        } finally {
            Replays.setSwitch(app, true);
        }
    }

    @Test
    @Order(4)
    void everyPageRendersWithoutBreakingItsContentSecurityPolicyAndIsPhotographed() throws Exception {
        quarantinedRecord();
        signIn("admin");
        open("/console");
        // the panel shows a fresh verdict once the check it asked for ends (the unmet conditions with it)
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#rollback-panel"))
                .containsAnyOf("READY", "NOT_READY", "UNKNOWN").contains("checked").doesNotContain("checking"));
        assertThat(text("#by-topic").isEmpty()).isFalse();
        assertThat(browser.findElement(By.id("overview-panels")).getText()).contains(ORDERS, GROUP);
        screenshot("overview");
        copyToDocs("overview");
        // the overview refreshes in place: a link focused before a refresh is focused after it
        WebElement link = browser.findElement(By.id("topic-0"));
        ((JavascriptExecutor) browser).executeScript("arguments[0].focus()", link);
        String before = text("#panels-at");
        await().atMost(WAIT).ignoreExceptions().until(() -> !text("#panels-at").equals(before)); // read while swapped: stale, read again
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("topic-0");
        assertThatThrownBy(link::isDisplayed).as("the panel was swapped, not left alone").isInstanceOf(StaleElementReferenceException.class);

        page("/console/quarantine", "quarantine");
        browser.findElement(By.id("quarantined-0")).click();
        assertThat(text("#quarantine-reason")).isNotEmpty();
        screenshot("quarantine-record");
        page("/console/audit?principal=operator", "audit");
        assertThat(text("#audit-list")).contains("IncidentAcknowledged", "looking into the price service");
        page("/console/as-of?at=" + URLEncoder.encode(Instant.now().plusSeconds(5).toString(), StandardCharsets.UTF_8), "as-of");
        assertThat(text("#as-of-list")).contains(ORDERS);
        page("/console/retention", "retention");
        assertThat(text("#retention-list")).contains(ORDERS);
        page("/console/rollback", "rollback");
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#verdict")).containsAnyOf("READY", "NOT_READY", "UNKNOWN"));
        assertThat(browser.findElements(By.cssSelector("#rollback-report tr[data-condition]"))).hasSizeGreaterThanOrEqualTo(4);
        screenshot("rollback");
        page("/login", "login");
    }

    @Test
    @Order(5)
    void recordsCarryingMarkupRenderAsText() throws Exception {
        String id = markupIncident();
        signIn("viewer");
        openIncident(id);
        assertThat(text("#failures")).contains(SCRIPT, IMG);
        browser.findElement(By.id("show-record")).click();
        await().atMost(WAIT).untilAsserted(() -> assertThat(browser.findElements(By.id("record-value"))).isNotEmpty());
        assertThat(text("#record-value")).isEqualTo("note " + IMG + " html " + SCRIPT);
        browser.findElement(By.id("show-stack-trace")).click();
        assertThat(text("#record-key")).isEqualTo(SCRIPT);
        assertThat(text("#record-value")).contains(IMG, SCRIPT);
        assertThat(text("#record-message")).isEqualTo("price " + SCRIPT + IMG);
        assertThat(text("#stack-trace")).contains(SCRIPT);
        assertThat(text("#record")).contains("x-note", IMG, "x-script", SCRIPT).contains("authorization", "[redacted]")
                .doesNotContain("Bearer secret");
        screenshot("incident-record");
        // on the DOM, not the source: nothing the record carried became an element, and nothing of it ran
        assertThat(browser.findElements(By.cssSelector("main img, main script, img[src='x']"))).isEmpty();
        assertThat(browser.findElements(By.tagName("script"))).as("only the page's own two scripts").hasSize(2);
        assertThat(((JavascriptExecutor) browser).executeScript("return typeof window.injected")).isEqualTo("undefined");

        open("/console/incidents?topic=" + ORDERS);
        assertThat(browser.findElements(By.cssSelector("main img, main script"))).isEmpty();
        open("/console");
        // the exception group's normalised message, quoted values replaced: the markup is still text
        assertThat(browser.findElement(By.id("overview-panels")).getText()).contains("<script>window.injected=");
        assertThat(browser.findElements(By.cssSelector("main img, main script"))).isEmpty();
        assertThat(((JavascriptExecutor) browser).executeScript("return typeof window.injected")).isEqualTo("undefined");
    }

    @Test
    @Order(6)
    void keyboardAloneSignsInAndReachesAndUsesEveryAction() throws Exception {
        String id = replayableIncident("keyboard");
        open("/login");
        new Actions(browser).sendKeys("operator").sendKeys(Keys.TAB).sendKeys(RunningApp.PASSWORD).sendKeys(Keys.ENTER).perform();
        await().atMost(WAIT).until(() -> browser.getCurrentUrl().endsWith("/console"));
        openIncident(id);
        Set<String> reached = tabThroughPage();
        assertThat(reached).contains("action-acknowledge", "action-replay", "action-resolve", "action-discard", "show-record", "sign-out",
                "nav-incidents", "nav-replay-switch");

        focusByTab("action-acknowledge");
        new Actions(browser).sendKeys(Keys.ENTER).perform();
        assertThat(browser.findElement(By.id("dialog-acknowledge")).getAttribute("open")).isNotNull();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("reason-acknowledge");
        new Actions(browser).sendKeys("acknowledged from the keyboard").sendKeys(Keys.TAB).perform();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("confirm-acknowledge");
        new Actions(browser).sendKeys(Keys.ENTER).perform();
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#incident-status")).isEqualTo("ACKED"));

        // a dialog opened by mistake closes with Escape and nothing is sent
        focusByTab("action-discard");
        new Actions(browser).sendKeys(Keys.ENTER).perform();
        new Actions(browser).sendKeys(Keys.ESCAPE).perform();
        assertThat(browser.findElement(By.id("dialog-discard")).getAttribute("open")).isNull();
        assertThat(text("#incident-status")).isEqualTo("ACKED");
        browser.manage().deleteAllCookies();

        signIn("admin");
        open("/console/replay-switch");
        assertThat(tabThroughPage()).contains("action-switch");
    }

    /**
     * After a replay the consumer fails again: the re-failure's own DLQ record, not only the root's, opens from the incident's
     * failures with its stack trace (why the fix did not work).
     */
    @Test
    @Order(7)
    void aFailureAfterAReplayOpensItsOwnRecordWithTheStackTraceOfWhyItFailedAgain() throws Exception {
        // the dead-lettered original's timestamp is the source record's, as Spring Kafka records it: the replay keeps it
        byte[] key = "order-refailed".getBytes(StandardCharsets.UTF_8);
        byte[] value = "{\"order\":\"refailed\",\"amount\":12.5}".getBytes(StandardCharsets.UTF_8);
        long at = System.currentTimeMillis();
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, at, key, value, "evt-refailed-" + NONCE)).get(30, TimeUnit.SECONDS);
        String id = Replays.sendFailure(producer, source, GROUP, key, value, "evt-refailed-" + NONCE, Instant.ofEpochMilli(at), DLQ);
        awaitListed(id);
        assertThat(Replays.requestReplay(app, id).statusCode()).isEqualTo(202);
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        await().atMost(WAIT).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_attempt WHERE incident_id = ? AND status = 'PUBLISHED'", id) == 1);
        // on the DLQ's one partition (refailures spreads the records it builds over two)
        ProducerRecord<byte[], byte[]> built = FaultRuns.refailures(jdbc, kafka, GROUP, DLQ).get(id);
        ProducerRecord<byte[], byte[]> refailure = new ProducerRecord<>(DLQ, 0, built.timestamp(), built.key(), built.value(), built.headers());
        refailure.headers().add("kafka_dlt-exception-stacktrace",
                "com.example.PriceMissingException: still no price after 1.4.2\n\tat com.example.Prices.of(Prices.java:9)".getBytes(StandardCharsets.UTF_8));
        producer.send(refailure).get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> RunningApp.get(app, "/api/v1/incidents/" + id + "/history", "viewer", RunningApp.PASSWORD).body()
                .contains("RetryFailureCorrelated"));

        signIn("viewer");
        openIncident(id);
        List<WebElement> later = browser.findElements(By.cssSelector("[id^='show-failure-record-']"));
        assertThat(later).as("the re-failure, and only it, has a record of its own to open").hasSize(1);
        later.get(0).click();
        await().atMost(WAIT).untilAsserted(() -> assertThat(browser.findElements(By.cssSelector("pre[id^='failure-'][id$='-stack-trace']"))).hasSize(1));
        browser.findElement(By.cssSelector("[id^='failure-'][id$='-show-stack-trace']")).click();
        assertThat(text("pre[id^='failure-'][id$='-stack-trace']")).contains("still no price after 1.4.2");
        assertThat(text("[id^='failure-'][id$='-record-value']")).contains("\"order\" : \"refailed\"", "\"amount\" : 12.5"); // pretty JSON
        screenshot("incident-refailure-record");
        // the root failure's record is still its own
        browser.findElement(By.id("show-record")).click();
        await().atMost(WAIT).untilAsserted(() -> assertThat(browser.findElements(By.id("record-value"))).isNotEmpty());
        assertThat(browser.findElements(By.id("stack-trace"))).as("the root failure's DLQ record carried no stack trace").isEmpty();

        HttpResponse<String> notAFailure = getFromBrowserSession("/console/incidents/" + id + "/failures/999/record");
        assertThat(notAFailure.statusCode()).isEqualTo(404);
    }

    /**
     * A read model that cannot store two incidents' rows (a trigger refuses them) parks their events: a viewer sees them and
     * no action, an admin retries one once the trigger is gone and evicts the other, each with a reason the audit shows.
     */
    @Test
    @Order(8)
    void anAdminRetriesOneParkedEventAndEvictsAnotherEachWithAReason() throws Exception {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        List<String> names = List.of("parked-retried", "parked-evicted");
        List<RecordMetadata> sources = new ArrayList<>();
        for (String name : names) {
            sources.add(producer.send(Replays.record(ORDERS, 0, System.currentTimeMillis(), name.getBytes(StandardCharsets.UTF_8),
                    "{}".getBytes(StandardCharsets.UTF_8), "evt-" + name + "-" + NONCE)).get(30, TimeUnit.SECONDS));
        }
        List<String> ids = sources.stream().map(source -> io.dlqdesk.domain.incident.IncidentId.of(
                new io.dlqdesk.domain.record.FailureKey(ORDERS, 0, source.offset(), GROUP)).value()).toList();
        String retried = ids.get(0);
        String evicted = ids.get(1);
        jdbc.execute("CREATE TRIGGER console_refuse_summary BEFORE INSERT ON incident_summary FOR EACH ROW BEGIN IF NEW.incident_id IN ('"
                + retried + "', '" + evicted + "') THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced by ConsoleBrowserIT'; END IF; END");
        try {
            for (int i = 0; i < names.size(); i++) {
                Replays.sendFailure(producer, sources.get(i), GROUP, names.get(i).getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8),
                        "evt-" + names.get(i) + "-" + NONCE, Instant.ofEpochMilli(sources.get(i).timestamp()), DLQ);
            }
            // when both land in one segment, a failed batch names one culprit per round and Axon waits 1, 2, 4 … 60 s before a
            // segment that failed runs again: parking the second can take over a minute
            await().atMost(PARKING).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(DISTINCT sequence_identifier) FROM parked_event WHERE processing_group = 'incident-summary'"
                    + " AND sequence_identifier IN (?, ?)", retried, evicted) == 2);

            signIn("viewer");
            page("/console/parked-events?processingGroup=incident-summary", "parked-events");
            assertThat(text("#parked-events")).contains(retried, evicted, "forced by ConsoleBrowserIT");
            assertThat(text("#p-group option[value='incident-summary']")).as("the group's count").isEqualTo("incident-summary (2)");
            assertThat(browser.findElements(By.cssSelector("[id^='action-']"))).as("no action for a viewer").isEmpty();
            browser.manage().deleteAllCookies();
        } finally {
            jdbc.execute("DROP TRIGGER IF EXISTS console_refuse_summary");
        }

        signIn("admin");
        open("/console/parked-events?processingGroup=incident-summary");
        act("retry-" + parkedRow(retried), "trigger dropped");
        assertThat(text("#notice-done")).isEqualTo("Applied: sequence " + retried + " left the queue.");
        act("evict-" + parkedRow(evicted), "test record, never to be shown");
        assertThat(text("#notice-done")).contains("Evicted", "incident-summary never applies it");
        assertThat(text("#parked-events")).doesNotContain(retried).doesNotContain(evicted);
        awaitListed(retried);

        // the audit is a read model: the eviction reaches it a batch after the page said it was done
        try {
            await().atMost(PARKING).untilAsserted(() -> {
                open("/console/audit?principal=admin");
                assertThat(text("#audit-list")).contains("ParkedEventsRetried", "trigger dropped", "ParkedEventEvicted", "test record, never to be shown");
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n" + eventStoreAround("ParkedEventEvicted", jdbc), e);
        }
    }

    /**
     * Where an event the read models never applied stands in the store: its row, its neighbours with their stored times
     * (Axon skips a hole below an event that looks older than its gap timeout), the processor's tokens and the parked events.
     * Seen once in a CI run: the eviction never reached the audit; this says why the next time.
     */
    @Test
    @Order(9)
    void theListsExportLinksCarryItsFiltersAndDownloadWhatItShows() throws Exception {
        String id = replayableIncident("export");
        replayableIncident("not-exported");
        signIn("viewer");
        String filtered = "/console/incidents?topic=" + ORDERS + "&status=OPEN&eventId=evt-export-" + NONCE;
        open(filtered);
        assertThat(browser.findElements(By.cssSelector("tr[data-incident]"))).extracting(row -> row.getAttribute("data-incident"))
                .containsExactly(id);

        String csvLink = browser.findElement(By.id("export-csv")).getAttribute("href");
        assertThat(csvLink).isEqualTo(base + "/console/incidents/export?format=csv&topic=" + ORDERS + "&status=OPEN&eventId=evt-export-" + NONCE);
        assertThat(browser.findElement(By.id("export-ndjson")).getAttribute("href")).isEqualTo(csvLink.replace("format=csv", "format=ndjson"));
        assertThat(browser.findElement(By.id("export-csv")).getAttribute("download")).isNotNull();

        HttpResponse<String> csv = getFromBrowserSession(csvLink.substring(base.length()));
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
        assertThat(csv.headers().firstValue("Content-Disposition")).hasValueSatisfying(disposition -> assertThat(disposition)
                .matches("attachment; filename=\"incidents-\\d{8}T\\d{6}Z\\.csv\""));
        assertThat(csv.body().split("\r\n")).hasSize(2).satisfies(lines -> assertThat(lines[0]).startsWith("incidentId,"))
                .satisfies(lines -> assertThat(lines[1]).startsWith("\"" + id + "\","));
        HttpResponse<String> ndjson = getFromBrowserSession(csvLink.replace("format=csv", "format=ndjson").substring(base.length()));
        assertThat(ndjson.statusCode()).isEqualTo(200);
        assertThat(ndjson.body().lines()).singleElement().satisfies(line -> assertThat(line).startsWith("{\"incidentId\":\"" + id + "\""));

        // a filter the list refuses is refused by the export as a page, before any download
        HttpResponse<String> refused = getFromBrowserSession("/console/incidents/export?format=csv&exceptionGroup=NOT-HEX");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("exceptionGroup must be 16 lower-case hex digits");
    }

    private static String eventStoreAround(String payloadType, JdbcTemplate jdbc) {
        try {
            return storeAround(payloadType, jdbc);
        } catch (RuntimeException e) {
            return "(the event store could not be read: " + e + ")";
        }
    }

    private static String storeAround(String payloadType, JdbcTemplate jdbc) {
        StringBuilder said = new StringBuilder("the event store around the last ").append(payloadType).append(':');
        List<Long> found = jdbc.queryForList("SELECT global_index FROM domain_event_entry WHERE payload_type LIKE ? ORDER BY global_index DESC LIMIT 1",
                Long.class, "%." + payloadType);
        long around = found.isEmpty() ? Long.MAX_VALUE : found.get(0);
        jdbc.query("SELECT global_index, time_stamp, payload_type FROM domain_event_entry WHERE global_index BETWEEN ? AND ? ORDER BY global_index",
                row -> {
                    said.append("\n  ").append(row.getLong(1)).append(' ').append(row.getString(2)).append(' ').append(row.getString(3));
                }, around - 5, around + 10);
        jdbc.query("SELECT processor_name, segment, owner, CAST(token AS CHAR) FROM token_entry ORDER BY processor_name, segment", row -> {
            said.append("\n  token ").append(row.getString(1)).append('/').append(row.getInt(2)).append(" owner ").append(row.getString(3))
                    .append(": ").append(row.getString(4));
        });
        jdbc.query("SELECT processing_group, sequence_identifier, payload_type FROM parked_event", row -> {
            said.append("\n  parked ").append(row.getString(1)).append(' ').append(row.getString(2)).append(' ').append(row.getString(3));
        });
        jdbc.query("SELECT event_id, action, occurred_at FROM admin_action", row -> {
            said.append("\n  audited ").append(row.getString(1)).append(' ').append(row.getString(2)).append(' ').append(row.getString(3));
        });
        return said.toString();
    }

    /** The index of the row that shows parked sequence {@code incident} on the page open now. */
    private static int parkedRow(String incident) {
        List<WebElement> rows = browser.findElements(By.cssSelector("#parked-events tbody tr"));
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).getText().contains(incident)) {
                return i;
            }
        }
        throw new AssertionError(incident + " is not on the page: " + text("#parked-events"));
    }

    // ---------------------------------------------------------------------------------------------------------------------

    /** An incident from a real DLQ record whose original is on the source topic, byte for byte: it can be replayed. */
    @Test
    @Order(20)
    void anEditorStartsFromTheRecordsValueASecondPersonApprovesTheDiffAndAnOperatorReplaysTheEdit() throws Exception {
        String id = replayableIncident("edited");
        signIn("editor");
        openIncident(id);
        browser.findElement(By.id("action-propose-edit")).click();
        // the value box is filled from the record when the dialog opens
        await().atMost(WAIT).ignoreExceptions().until(() -> browser.findElement(By.id("edit-value")).getAttribute("value").contains("12.5"));
        WebElement value = browser.findElement(By.id("edit-value"));
        value.clear();
        value.sendKeys("{\"order\":\"edited\",\"amount\":12.75}");
        browser.findElement(By.id("reason-propose-edit")).sendKeys("amount rounded by the producer's bug");
        browser.findElement(By.id("confirm-propose-edit")).click();
        await().atMost(WAIT).until(() -> !browser.findElements(By.cssSelector("#notice-done, #notice-refused")).isEmpty());
        assertThat(text("#notice-done")).contains("Edit 1 proposed");
        // the edits follow the read model until the proposal shows: no reload
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#edit-1")).contains("AWAITING_APPROVAL", "editor"));
        assertThat(browser.findElements(By.id("action-approve-edit-1"))).as("an editor is no approver").isEmpty();
        signOut();

        signIn("approver");
        openIncident(id);
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#edit-1 table.diff")).contains("/amount", "12.5", "12.75"));
        act("approve-edit-1", "checked the invoice: 12.75");
        assertThat(text("#notice-done")).contains("Edit 1 approved");
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#edit-1")).contains("APPROVED", "approver",
                "checked the invoice: 12.75").doesNotContain("AWAITING_APPROVAL"));
        screenshot("incident-edit");
        copyToDocs("incident-edit");
        signOut();

        signIn("operator");
        openIncident(id);
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(text("#edit-1")).contains("APPROVED", "approver"));
        browser.findElement(By.id("action-replay")).click();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("replay-edit"))).selectByValue("1");
        browser.findElement(By.id("reason-replay")).sendKeys("replay the approved edit");
        browser.findElement(By.id("confirm-replay")).click();
        await().atMost(WAIT).until(() -> !browser.findElements(By.cssSelector("#notice-done, #notice-refused")).isEmpty());
        assertThat(text("#notice-done")).contains("attempt 1");
        await().atMost(WAIT).until(() -> Replays.lastPayload(app, id, "ReplayRequested").contains("\"number\":1"));
    }

    private static String replayableIncident(String name) throws Exception {
        byte[] key = ("order-" + name).getBytes(StandardCharsets.UTF_8);
        byte[] value = ("{\"order\":\"" + name + "\",\"amount\":12.5}").getBytes(StandardCharsets.UTF_8);
        String eventId = "evt-" + name + "-" + NONCE;
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, System.currentTimeMillis(), key, value, eventId)).get(30, TimeUnit.SECONDS);
        String id = Replays.sendFailure(producer, source, GROUP, key, value, eventId, Instant.ofEpochMilli(source.timestamp()), DLQ);
        awaitListed(id);
        return id;
    }

    /** Markup in the key, the value, the exception message, the stack trace and headers; a credential header too. */
    private static String markupIncident() throws Exception {
        byte[] key = SCRIPT.getBytes(StandardCharsets.UTF_8);
        byte[] value = ("note " + IMG + " html " + SCRIPT).getBytes(StandardCharsets.UTF_8);
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, System.currentTimeMillis(), key, value, "evt-markup-" + NONCE))
                .get(30, TimeUnit.SECONDS);
        producer.send(DltRecord.failure(source.topic(), source.partition(), source.offset(), GROUP).key(key).value(value)
                .without("eventId").header("eventId", "evt-markup-" + NONCE)
                .header("x-note", IMG).header("x-script", SCRIPT).header("authorization", "Bearer secret")
                .without("kafka_dlt-exception-message").header("kafka_dlt-exception-message", "price " + SCRIPT + IMG)
                .header("kafka_dlt-exception-stacktrace", "com.example.PriceMissingException: " + SCRIPT + "\n\tat com.example.Prices.of(Prices.java:7)")
                .to(DLQ, 0)).get(30, TimeUnit.SECONDS);
        String id = io.dlqdesk.domain.incident.IncidentId.of(new io.dlqdesk.domain.record.FailureKey(source.topic(), source.partition(), source.offset(),
                GROUP)).value();
        awaitListed(id);
        return id;
    }

    /** A DLQ record without its failing group: it can only be quarantined. */
    private static void quarantinedRecord() throws Exception {
        producer.send(DltRecord.failure(ORDERS, 0, 999_999, GROUP).without("kafka_dlt-original-consumer-group").to(DLQ, 0))
                .get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> RunningApp.get(app, "/api/v1/quarantine?topic=" + DLQ, "viewer", RunningApp.PASSWORD).body()
                .contains("\"dlqTopic\":\"" + DLQ + "\""));
    }

    private static void awaitListed(String id) {
        await().atMost(WAIT).until(() -> RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).statusCode() == 200);
    }

    private static void signIn(String user) {
        open("/login");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(RunningApp.PASSWORD);
        browser.findElement(By.id("sign-in")).click();
        await().atMost(WAIT).until(() -> browser.getCurrentUrl().endsWith("/console"));
        assertThat(text("#signed-in-as")).isEqualTo(user);
    }

    private static void openIncident(String id) {
        open("/console/incidents/" + id);
        assertThat(text("#incident-id")).isEqualTo(id);
    }

    /** Opens the action's confirmation dialog, gives the reason, confirms, and waits for the page it answers with. */
    private static void act(String action, String reason) {
        browser.findElement(By.id("action-" + action)).click();
        WebElement dialog = browser.findElement(By.id("dialog-" + action));
        assertThat(dialog.getAttribute("open")).isNotNull();
        browser.findElement(By.id("reason-" + action)).sendKeys(reason);
        browser.findElement(By.id("confirm-" + action)).click();
        await().atMost(WAIT).until(() -> !browser.findElements(By.cssSelector("#notice-done, #notice-refused")).isEmpty());
    }

    /** Tab from the top of the page until focus comes round again; the ids of everything reached. */
    private static Set<String> tabThroughPage() {
        ((JavascriptExecutor) browser).executeScript("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)");
        Set<String> reached = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
            String id = browser.switchTo().activeElement().getAttribute("id");
            if (id != null && !id.isEmpty() && !reached.add(id)) {
                break; // round once
            }
        }
        return reached;
    }

    private static void focusByTab(String id) {
        ((JavascriptExecutor) browser).executeScript("document.activeElement && document.activeElement.blur()");
        for (int i = 0; i < 300; i++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
            if (id.equals(browser.switchTo().activeElement().getAttribute("id"))) {
                return;
            }
        }
        throw new AssertionError(id + " is not reachable with Tab");
    }

    private static void open(String path) {
        browser.get(base + path);
        assertNoPolicyViolations(path);
    }

    private static void page(String path, String screenshot) throws Exception {
        open(path);
        assertThat(browser.findElements(By.tagName("h1"))).isNotEmpty();
        assertThat(browser.findElements(By.id("error-detail"))).as(path + " is not an error page").isEmpty();
        screenshot(screenshot);
    }

    /** The browser refuses what the Content-Security-Policy forbids and says so in its console: nothing of ours may need it. */
    private static void assertNoPolicyViolations(String path) {
        List<String> violations = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getMessage().contains("Content Security Policy") || entry.getMessage().contains("Content-Security-Policy")) {
                violations.add(entry.getMessage());
            }
        }
        assertThat(violations).as("CSP violations on " + path).isEmpty();
    }

    /** The element's text; found again when a refresh swapped it between finding and reading (the overview polls). */
    private static String text(String css) {
        for (int tries = 1; ; tries++) {
            try {
                return browser.findElement(By.cssSelector(css)).getText();
            } catch (StaleElementReferenceException swapped) {
                if (tries == 5) {
                    throw swapped;
                }
            }
        }
    }

    private static void screenshot(String name) throws Exception {
        browser.manage().window().setSize(new Dimension(1400, 1100));
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The pictures of README.md and docs/console.md: written to docs/ only when asked for (-Dconsole.docs=true), from the screenshot just taken. */
    private static void copyToDocs(String name) throws Exception {
        if (Boolean.getBoolean("console.docs")) {
            Path docs = Path.of("..", "docs");
            Files.createDirectories(docs);
            Files.copy(SCREENSHOTS.resolve(name + ".png"), docs.resolve("console-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A GET with the browser's own session cookie. */
    private static HttpResponse<String> getFromBrowserSession(String path) throws Exception {
        Cookie session = browser.manage().getCookieNamed("JSESSIONID");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).header("Cookie", "JSESSIONID=" + session.getValue())
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form POST with the browser's own session cookie and the CSRF token of the page it shows. */
    private static HttpResponse<String> postFromBrowserSession(String path, String form) throws Exception {
        Cookie session = browser.manage().getCookieNamed("JSESSIONID");
        String token = browser.findElement(By.cssSelector("input[name='_csrf']")).getAttribute("value");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Cookie", "JSESSIONID=" + session.getValue()).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form + "&_csrf=" + URLEncoder.encode(token, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
