package io.dlqdesk.bench;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JWT bearer tokens for the instances bench, as a deployment's automation calls the service (configured users are for a
 * local run, and each HTTP Basic request pays a bcrypt check: about 100 ms of CPU here, more than the replay it asks for).
 * An RSA key: its public half in a PEM file the instances read, its private half signing a token per role.
 */
final class BearerTokens {

    private static final String ISSUER = "https://bench.invalid/issuer";
    private static final String AUDIENCE = "dlq-incident-desk";

    private final RSAPrivateKey privateKey;
    private final Path publicKey;

    private BearerTokens(RSAPrivateKey privateKey, Path publicKey) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
    }

    /** A new key pair, the public key written to {@code dir/bench-jwt.pem}. */
    static BearerTokens create(Path dir) throws GeneralSecurityException, IOException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path pem = Files.createDirectories(dir).resolve("bench-jwt.pem");
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        return new BearerTokens((RSAPrivateKey) keys.getPrivate(), pem);
    }

    /** The settings that make an instance accept these tokens: the key, issuer and audience, and each role granted by its own name. */
    Map<String, Object> properties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.security.oauth2.resourceserver.jwt.public-key-location", publicKey.toUri());
        properties.put("dlqdesk.security.jwt.issuer", ISSUER);
        properties.put("dlqdesk.security.jwt.audience", AUDIENCE);
        for (String role : List.of("VIEWER", "OPERATOR", "ADMIN")) {
            properties.put("dlqdesk.security.jwt.roles." + role + "[0]", role);
        }
        return properties;
    }

    /** The Authorization header of a caller with {@code role}, valid for 50 minutes (the service accepts at most an hour). */
    String authorization(String role) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), new JWTClaimsSet.Builder().subject("bench-" + role.toLowerCase(java.util.Locale.ROOT))
                .issuer(ISSUER).audience(AUDIENCE).claim("roles", List.of(role)).issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(3000))).build());
        jwt.sign(new RSASSASigner(privateKey));
        return "Bearer " + jwt.serialize();
    }
}
