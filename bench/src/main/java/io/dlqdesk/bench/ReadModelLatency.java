package io.dlqdesk.bench;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dlqdesk.app.DlqDeskApplication;
import io.dlqdesk.testsupport.TestDatabase;
import io.dlqdesk.testsupport.TestInfrastructure;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Latency of the read endpoints with many incidents in the read model, on the real database, as
 * p50/p99 over sequential requests, next to a baseline measured in the same run: the liveness probe
 * (same HTTP stack and bearer-token authentication, no database). Rows are written straight into the
 * read-model tables (what the projection would have written), because reading is what is measured.
 * Callers authenticate with a signed JWT, production's path: HTTP Basic verifies a bcrypt hash on
 * every request, which by design costs more than any of these queries.
 *
 * <pre>./mvnw -pl bench -am install -DskipTests && ./mvnw -pl bench exec:java [-Dincidents=100000 -Drequests=1000]</pre>
 */
public final class ReadModelLatency {

    private ReadModelLatency() {
    }

    /** The endpoint timed for the list. */
    static final String LIST = "GET /api/v1/incidents (first page of 50)";
    /** The endpoint timed for the open count. */
    static final String COUNT = "GET /api/v1/incident-counts?by=status";
    /** The endpoint timed for the point-in-time audit: the ledger as it stood 15 days ago (half the history is later). */
    static final String AS_OF = "GET /api/v1/audit/incidents-as-of (15 days ago)";
    /** The same request after nine times the history again was added before the asked instant. */
    static final String AS_OF_TEN_TIMES = "same, with 10× the history before that instant";
    /** Index and row reads in the database per as-of page (one-element array), without and with the extra history. */
    static final String AS_OF_ROWS_READ = "as-of: rows read in the database per page";
    static final String AS_OF_TEN_TIMES_ROWS_READ = "as-of: rows read per page, 10× the history";
    /** The console's overview, first page of the list, and one incident, with the same incidents in the read model. */
    static final String CONSOLE_OVERVIEW = "console: overview";
    static final String CONSOLE_LIST = "console: incidents (first page of 50)";
    static final String CONSOLE_INCIDENT = "console: one incident";
    /** The console signs in with a form: a Basic user (its bcrypt hash checked once, at sign-in). */
    private static final String CONSOLE_USER = "bench";
    private static final String CONSOLE_PASSWORD = "bench-password";
    private static final String ISSUER = "https://bench.invalid/issuer";
    private static final String AUDIENCE = "dlq-incident-desk";

    public static void main(String[] args) throws Exception {
        run(TestInfrastructure.shared(), Integer.getInteger("incidents", 100_000), Integer.getInteger("requests", 1_000));
        System.exit(0); // the embedded servers' threads are not ours to wait for
    }

    /** Prints the table; returns each endpoint's sorted latencies in milliseconds. */
    static Map<String, double[]> run(TestInfrastructure infrastructure, int incidents, int requests) throws Exception {
        TestDatabase database = infrastructure.databaseFor(ReadModelLatency.class);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path publicKey = Files.createTempFile("dlqdesk-bench", ".pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        String token = token((RSAPrivateKey) keys.getPrivate());
        Map<String, double[]> results = new LinkedHashMap<>();
        try (ConfigurableApplicationContext app = start(database, infrastructure.broker().bootstrapServers(), publicKey)) {
            long loadStarted = System.nanoTime();
            LoadedReadModels.load(app.getBean(JdbcTemplate.class), incidents);
            System.out.printf(Locale.ROOT, "loaded %,d incidents into the read model in %.1f s%n", incidents,
                    (System.nanoTime() - loadStarted) / 1e9);
            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
            Map<String, String> endpoints = new LinkedHashMap<>();
            endpoints.put("baseline: GET /actuator/health/liveness", "/actuator/health/liveness");
            endpoints.put(LIST, "/api/v1/incidents");
            endpoints.put("GET /api/v1/incidents?topic=&status=OPEN", "/api/v1/incidents?topic=orders-7&status=OPEN");
            endpoints.put("GET /api/v1/incidents?group=&exceptionGroup=", "/api/v1/incidents?group=group-3&exceptionGroup=" + LoadedReadModels.group(11));
            endpoints.put("GET /api/v1/incidents?page=100", "/api/v1/incidents?page=100");
            endpoints.put("GET /api/v1/incident-counts?by=topic", "/api/v1/incident-counts?by=topic");
            endpoints.put(COUNT, "/api/v1/incident-counts?by=status");
            endpoints.put("GET /api/v1/incident-counts?by=exception-group", "/api/v1/incident-counts?by=exception-group");
            endpoints.put("GET /api/v1/exception-groups", "/api/v1/exception-groups");
            endpoints.put(AS_OF, "/api/v1/audit/incidents-as-of?size=100&at=" + LoadedReadModels.NOW.minus(java.time.Duration.ofDays(15)));
            endpoints.put("GET /api/v1/incidents?eventId=", "/api/v1/incidents?eventId=" + LoadedReadModels.eventId(incidents / 2));
            endpoints.put("GET /api/v1/incidents?key=", "/api/v1/incidents?key=order-" + (incidents / 3));
            HttpClient client = HttpClient.newHttpClient();
            System.out.printf(Locale.ROOT, "%nread endpoints, %,d incidents, %,d sequential requests each (2 cores, embedded MariaDB)%n",
                    incidents, requests);
            System.out.printf(Locale.ROOT, "| %-48s | %8s | %8s | %14s |%n", "endpoint", "p50 ms", "p99 ms", "p99 / baseline");
            System.out.printf(Locale.ROOT, "| %-48s | %8s | %8s | %14s |%n", "-".repeat(48), "-".repeat(8), "-".repeat(8), "-".repeat(14));
            double baselineP99 = 0;
            for (Map.Entry<String, String> endpoint : endpoints.entrySet()) {
                measure(client, base + endpoint.getValue(), token, requests / 5); // warm-up
                double[] millis = measure(client, base + endpoint.getValue(), token, requests);
                results.put(endpoint.getKey(), millis);
                if (baselineP99 == 0) {
                    baselineP99 = percentile(millis, 0.99);
                }
                System.out.printf(Locale.ROOT, "| %-48s | %8.2f | %8.2f | %14.1f |%n", endpoint.getKey(), percentile(millis, 0.50),
                        percentile(millis, 0.99), percentile(millis, 0.99) / baselineP99);
            }
            // the console's pages, as a signed-in browser asks for them (form login once, then the session cookie)
            HttpClient browser = signedInBrowser(base);
            String incident = String.format(Locale.ROOT, "inc-%032x", incidents / 2);
            Map<String, String> pages = new LinkedHashMap<>();
            pages.put(CONSOLE_OVERVIEW, "/console");
            pages.put("console: overview panels (its refresh)", "/console/overview/panels");
            pages.put(CONSOLE_LIST, "/console/incidents");
            pages.put("console: incidents, topic + OPEN", "/console/incidents?topic=orders-7&status=OPEN");
            pages.put("console: incidents, eventId search", "/console/incidents?eventId=" + LoadedReadModels.eventId(incidents / 2));
            pages.put("console: incidents, key search", "/console/incidents?key=order-" + (incidents / 3));
            pages.put("console: incidents, page 100", "/console/incidents?page=100");
            pages.put(CONSOLE_INCIDENT, "/console/incidents/" + incident);
            pages.put("console: audit", "/console/audit");
            pages.put("console: as of 15 days ago", "/console/as-of?at=" + LoadedReadModels.NOW.minus(java.time.Duration.ofDays(15)));
            pages.put("console: quarantine", "/console/quarantine");
            pages.put("console: replay switch", "/console/replay-switch");
            for (Map.Entry<String, String> page : pages.entrySet()) {
                measure(browser, base + page.getValue(), null, requests / 5); // warm-up
                double[] millis = measure(browser, base + page.getValue(), null, requests);
                results.put(page.getKey(), millis);
                System.out.printf(Locale.ROOT, "| %-48s | %8.2f | %8.2f | %14.1f |%n", page.getKey(), percentile(millis, 0.50),
                        percentile(millis, 0.99), percentile(millis, 0.99) / baselineP99);
            }
            // a page of the audit must cost the same however long the history before the instant is: timed, and counted in
            // rows the database reads (the count is what proves it; the time also moves with caches and the machine)
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            String asOf = base + endpoints.get(AS_OF);
            results.put(AS_OF_ROWS_READ, new double[] {rowsReadPerRequest(jdbc, client, asOf, token, requests)});
            LoadedReadModels.loadOlderHistory(jdbc, incidents, 9 * incidents);
            measure(client, asOf, token, requests / 5);
            double[] millis = measure(client, asOf, token, requests);
            results.put(AS_OF_TEN_TIMES, millis);
            results.put(AS_OF_TEN_TIMES_ROWS_READ, new double[] {rowsReadPerRequest(jdbc, client, asOf, token, requests)});
            System.out.printf(Locale.ROOT, "as-of: %.1f rows read in the database per page without the extra history, %.1f with it%n",
                    results.get(AS_OF_ROWS_READ)[0], results.get(AS_OF_TEN_TIMES_ROWS_READ)[0]);
            System.out.printf(Locale.ROOT, "| %-48s | %8.2f | %8.2f | %14.1f |%n", AS_OF_TEN_TIMES, percentile(millis, 0.50),
                    percentile(millis, 0.99), percentile(millis, 0.99) / baselineP99);
        }
        return results;
    }

    /**
     * The server's row reads (index lookups, index steps forwards and backwards, table scan steps) per request,
     * from its global handler counters around {@code requests} sequential requests. Global: the service's idle
     * background work (processors polling the event store) is counted too, a few reads per request at most.
     */
    private static double rowsReadPerRequest(JdbcTemplate jdbc, HttpClient client, String url, String token, int requests) throws Exception {
        long before = rowsRead(jdbc);
        measure(client, url, token, requests);
        return (rowsRead(jdbc) - before) / (double) requests;
    }

    private static long rowsRead(JdbcTemplate jdbc) {
        return jdbc.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Handler_read_key', 'Handler_read_next', 'Handler_read_prev', "
                + "'Handler_read_first', 'Handler_read_last', 'Handler_read_rnd', 'Handler_read_rnd_next')", (row, n) -> row.getLong(2))
                .stream().mapToLong(Long::longValue).sum();
    }

    private static String token(RSAPrivateKey key) throws Exception {
        // what the service requires of a token: its issuer and audience, a subject, an expiry within the maximum lifetime
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), new JWTClaimsSet.Builder().subject("bench")
                .issuer(ISSUER).audience(AUDIENCE).claim("roles", List.of("VIEWER")).issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(1800))).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String bootstrapServers, Path publicKey) {
        return new SpringApplicationBuilder(DlqDeskApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.kafka.bootstrap-servers=" + bootstrapServers,
                "--server.port=0", "--server.address=127.0.0.1", "--dlqdesk.ingest.enabled=false",
                "--dlqdesk.events-topic=bench-incident-events", "--logging.level.root=WARN",
                // the gauges' scheduled reads would be counted in the as-of page's rows read (the database counts them all)
                "--dlqdesk.metrics.refresh-interval=1h",
                "--spring.security.oauth2.resourceserver.jwt.public-key-location=" + publicKey.toUri(),
                "--dlqdesk.security.jwt.issuer=" + ISSUER, "--dlqdesk.security.jwt.audience=" + AUDIENCE,
                "--dlqdesk.security.jwt.roles.VIEWER[0]=VIEWER", // the bench's token carries roles: [VIEWER]
                "--dlqdesk.security.users[0].name=" + CONSOLE_USER, "--dlqdesk.security.users[0].roles=VIEWER",
                "--dlqdesk.security.users[0].password-hash={bcrypt}"
                        + new org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder(4).encode(CONSOLE_PASSWORD));
    }

    /** An HTTP client that signed in to the console with its form (CSRF token included) and keeps the session cookie. */
    private static HttpClient signedInBrowser(String base) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        String form = browser.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(), HttpResponse.BodyHandlers.ofString()).body();
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form);
        if (!token.find()) {
            throw new IllegalStateException("no CSRF token on the login page");
        }
        HttpResponse<String> login = browser.send(HttpRequest.newBuilder(URI.create(base + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + CONSOLE_USER + "&password=" + CONSOLE_PASSWORD + "&_csrf="
                        + java.net.URLEncoder.encode(token.group(1), StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        if (login.statusCode() != 302 || login.headers().firstValue("Location").orElse("error").contains("error")) {
            throw new IllegalStateException("console sign-in failed: " + login.statusCode() + " " + login.headers().map());
        }
        return browser;
    }

    /** With the bearer token, or ({@code token} null) with the client's own session cookie. */
    private static double[] measure(HttpClient client, String url, String token, int requests) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url));
        HttpRequest request = (token == null ? builder : builder.header("Authorization", "Bearer " + token)).build();
        double[] millis = new double[requests];
        for (int i = 0; i < requests; i++) {
            long started = System.nanoTime();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            millis[i] = (System.nanoTime() - started) / 1e6;
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
            }
        }
        Arrays.sort(millis);
        return millis;
    }

    private static double percentile(double[] sorted, double quantile) {
        return Stats.percentile(sorted, quantile);
    }
}
