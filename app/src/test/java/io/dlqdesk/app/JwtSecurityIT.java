package io.dlqdesk.app;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Production's path: bearer JWTs. A token is trusted only for what it proves: our issuer and audience, a
 * subject, a bounded lifetime, exact role names. Every refusal is a 401 (or 403 for a role it does not
 * have) problem, paired with a token that differs only in the refused point and is accepted.
 */
@RealInfrastructure
class JwtSecurityIT {

    private static final String ISSUER = "https://idp.example.test/";
    private static final String AUDIENCE = "dlq-incident-desk";
    private static RSAPrivateKey key;
    private static Path publicKey;
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        key = (RSAPrivateKey) keys.getPrivate();
        publicKey = Files.createTempFile("dlqdesk-jwt", ".pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        app = RunningApp.start(database, broker, Map.ofEntries(
                Map.entry("spring.security.oauth2.resourceserver.jwt.public-key-location", publicKey.toUri().toString()),
                Map.entry("dlqdesk.security.jwt-role-claim", "dlq_roles"),
                Map.entry("dlqdesk.security.jwt.issuer", ISSUER),
                Map.entry("dlqdesk.security.jwt.audience", AUDIENCE),
                Map.entry("dlqdesk.security.jwt.roles.VIEWER[0]", "viewer"),
                Map.entry("dlqdesk.security.jwt.roles.OPERATOR[0]", "operator"),
                Map.entry("dlqdesk.security.jwt.roles.ADMIN[0]", "admin"),
                Map.entry("dlqdesk.security.jwt.roles.DEPLOYER[0]", "deployer"),
                Map.entry("dlqdesk.events-topic", "it-jwt-" + System.nanoTime())));
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        Files.deleteIfExists(publicKey);
    }

    @Test
    void aTokenWithAReadingRoleInTheConfiguredClaimMayReadAndOneWithoutMayNot() throws Exception {
        String viewer = token("alice", claims -> claims.claim("dlq_roles", List.of("viewer")));
        assertThat(bearer(viewer).statusCode()).isEqualTo(200);
        assertThat(bearer(token("bob", claims -> claims.claim("dlq_roles", List.of("janitor")))).statusCode()).isEqualTo(403);
        assertThat(bearer(token("carol", claims -> claims.claim("roles", List.of("VIEWER")))).statusCode()).isEqualTo(403);
        assertUnauthorized(bearer(viewer.substring(0, viewer.length() - 4) + "AAAA"), "");
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        assertUnauthorized(bearer(token("alice", claims -> claims.audience("another-app").claim("dlq_roles", List.of("admin")))), "audience");
        assertThat(bearer(token("alice", claims -> claims.audience(List.of("another-app", AUDIENCE)).claim("dlq_roles", List.of("admin"))))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenFromAnotherIssuerIsRefused() throws Exception {
        assertUnauthorized(bearer(token("alice", claims -> claims.issuer("https://other-idp.example.test/")
                .claim("dlq_roles", List.of("admin")))), "issued");
        assertThat(bearer(token("alice", claims -> claims.issuer(ISSUER).claim("dlq_roles", List.of("admin")))).statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenWithoutExpiryIsRefused() throws Exception {
        assertUnauthorized(bearer(token("alice", claims -> claims.expirationTime(null).claim("dlq_roles", List.of("viewer")))), "expiry");
    }

    @Test
    void aTokenIssuedInTheFutureIsRefusedButSmallClockSkewIsAccepted() throws Exception {
        Instant now = Instant.now();
        assertUnauthorized(bearer(token("alice", claims -> claims.issueTime(Date.from(now.plus(Duration.ofMinutes(10))))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(20)))).claim("dlq_roles", List.of("viewer")))), "future");
        assertThat(bearer(token("alice", claims -> claims.issueTime(Date.from(now.plusSeconds(20)))
                .claim("dlq_roles", List.of("viewer")))).statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenLivingLongerThanTheMaximumIsRefused() throws Exception {
        Instant now = Instant.now();
        assertUnauthorized(bearer(token("alice", claims -> claims.expirationTime(Date.from(now.plus(Duration.ofDays(3650))))
                .claim("dlq_roles", List.of("viewer")))), "longer");
        assertThat(bearer(token("alice", claims -> claims.expirationTime(Date.from(now.plus(Duration.ofMinutes(59))))
                .claim("dlq_roles", List.of("viewer")))).statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenWithoutSubjectIsA401NotA500() throws Exception {
        assertUnauthorized(bearer(token(null, claims -> claims.claim("dlq_roles", List.of("viewer")))), "subject");
    }

    /** No case folding of arbitrary Unicode: a dotless ı is not an i. */
    @Test
    void aHomoglyphRoleNameGrantsNothing() throws Exception {
        HttpResponse<String> homoglyph = get("/actuator/info", token("mallory", claims -> claims.claim("dlq_roles", List.of("admın", "ADMİN"))));
        assertThat(homoglyph.statusCode()).isEqualTo(403);
        assertThat(homoglyph.body()).contains("urn:dlqdesk:problem:forbidden");
        assertThat(get("/actuator/info", token("mallory", claims -> claims.claim("dlq_roles", List.of("admin")))).statusCode()).isEqualTo(200);
    }

    /** Only the configured claim values grant a role: Spring's ROLE_ prefix or another case is not a way in. */
    @Test
    void anUnmappedSpellingOfARoleGrantsNothing() throws Exception {
        for (String spelling : List.of("ROLE_ADMIN", "ADMIN", "Admin", "role_admin")) {
            assertThat(get("/actuator/info", token("mallory", claims -> claims.claim("dlq_roles", List.of(spelling)))).statusCode())
                    .as(spelling).isEqualTo(403);
        }
        assertThat(get("/actuator/info", token("mallory", claims -> claims.claim("dlq_roles", List.of("ROLE_ADMIN", "admin")))).statusCode())
                .as("the mapped value").isEqualTo(200);
    }

    @Test
    void bearerTokensWithoutARoleMappingStopTheServiceAtStartUp(TestDatabase database, KafkaBroker broker) {
        assertThatThrownBy(() -> RunningApp.start(database, broker, Map.of(
                "spring.security.oauth2.resourceserver.jwt.public-key-location", publicKey.toUri().toString(),
                "dlqdesk.security.jwt.issuer", ISSUER,
                "dlqdesk.security.jwt.audience", AUDIENCE,
                "dlqdesk.events-topic", "it-jwt-unmapped-" + System.nanoTime())).close())
                .hasStackTraceContaining("dlqdesk.security.jwt.roles maps no role-claim value to a role");
    }

    /** A token's subject "admin" is not the Basic user admin in the audit trail. */
    @Test
    void aTokenPrincipalIsRecordedWithItsIssuerAndCannotPassForABasicUser() throws Exception {
        FailureKey failure = new FailureKey("jwt-principal-" + System.nanoTime(), 0, 1, "g");
        IncidentId incident = RunningApp.openIncident(app, failure, Instant.now());
        String operator = token("admin", claims -> claims.claim("dlq_roles", List.of("operator")));
        HttpResponse<String> acknowledged = HttpClient.newHttpClient().send(request("/api/v1/incidents/" + incident.value() + "/acknowledge")
                .header("Authorization", "Bearer " + operator).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"mine\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(acknowledged.statusCode()).as(acknowledged.body()).isEqualTo(204);
        String history = "/api/v1/incidents/" + incident.value() + "/history";
        await().atMost(Duration.ofSeconds(30)).until(() -> get(history, operator).body().contains("IncidentAcknowledged"));
        assertThat(get(history, operator).body()).contains("\"principal\":\"jwt:" + ISSUER + "|admin\"").doesNotContain("\"principal\":\"admin\"");
    }

    @Test
    void bearerTokensWithoutIssuerAndAudienceConfiguredStopTheServiceAtStartUp(TestDatabase database, KafkaBroker broker) {
        assertThatThrownBy(() -> RunningApp.start(database, broker, Map.of(
                "spring.security.oauth2.resourceserver.jwt.public-key-location", publicKey.toUri().toString(),
                "dlqdesk.events-topic", "it-jwt-unset-" + System.nanoTime())).close())
                .hasStackTraceContaining("dlqdesk.security.jwt.issuer and dlqdesk.security.jwt.audience are not both set");
    }

    private static void assertUnauthorized(HttpResponse<String> response, String detail) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        assertThat(response.body()).contains("urn:dlqdesk:problem:unauthenticated").contains(detail);
    }

    /** A valid token for us (issuer, audience, iat now, exp in 5 minutes) that {@code change} may alter. */
    private static String token(String subject, Consumer<JWTClaimsSet.Builder> change) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(AUDIENCE).issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(300)));
        change.accept(claims);
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static HttpResponse<String> bearer(String token) throws Exception {
        return get("/api/v1/topics/retention", token);
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        return HttpClient.newHttpClient().send(request(path).header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path));
    }
}
