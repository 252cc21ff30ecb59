package io.dlqdesk.app;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Production's path: bearer JWTs, roles taken from a configurable claim. */
@RealInfrastructure
class JwtSecurityIT {

    @Test
    void aTokenWithAReadingRoleInTheConfiguredClaimMayReadAndOneWithoutMayNot(TestDatabase database, KafkaBroker broker) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path publicKey = Files.createTempFile("dlqdesk-jwt", ".pem");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, Map.of(
                "spring.security.oauth2.resourceserver.jwt.public-key-location", publicKey.toUri().toString(),
                "dlqdesk.security.jwt-role-claim", "dlq_roles",
                "dlqdesk.events-topic", "it-jwt-" + System.nanoTime()))) {
            String viewer = token((RSAPrivateKey) keys.getPrivate(), "alice", Map.of("dlq_roles", List.of("viewer")));
            String noRole = token((RSAPrivateKey) keys.getPrivate(), "bob", Map.of("dlq_roles", List.of("janitor")));
            String roleInOtherClaim = token((RSAPrivateKey) keys.getPrivate(), "carol", Map.of("roles", List.of("VIEWER")));

            assertThat(bearer(app, viewer).statusCode()).isEqualTo(200);
            assertThat(bearer(app, noRole).statusCode()).isEqualTo(403);
            assertThat(bearer(app, roleInOtherClaim).statusCode()).isEqualTo(403);
            assertThat(bearer(app, viewer.substring(0, viewer.length() - 4) + "AAAA").statusCode()).isEqualTo(401);
        } finally {
            Files.deleteIfExists(publicKey);
        }
    }

    private static String token(RSAPrivateKey key, String subject, Map<String, Object> claims) throws Exception {
        JWTClaimsSet.Builder set = new JWTClaimsSet.Builder().subject(subject).issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(300)));
        claims.forEach(set::claim);
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), set.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static HttpResponse<String> bearer(ConfigurableApplicationContext app, String token) throws Exception {
        return RunningApp.get(app, "/api/v1/topics/retention", "Bearer " + token);
    }
}
