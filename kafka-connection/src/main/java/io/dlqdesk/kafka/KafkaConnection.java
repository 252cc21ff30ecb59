package io.dlqdesk.kafka;

import org.apache.kafka.clients.CommonClientConfigs;

import java.util.HashMap;
import java.util.Map;

/**
 * How every Kafka client of the desk connects: the brokers ({@code spring.kafka.bootstrap-servers}) and the
 * prefix of each client's id ({@code spring.application.name}), so that a broker's logs and quotas tell the
 * desk's clients apart.
 */
public record KafkaConnection(String bootstrapServers, String clientIdPrefix) {

    public KafkaConnection {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("spring.kafka.bootstrap-servers is required: the Kafka bootstrap servers");
        }
        if (clientIdPrefix == null || clientIdPrefix.isBlank()) {
            throw new IllegalArgumentException("spring.application.name must not be blank: it prefixes every Kafka client id");
        }
    }

    /** The settings a client starts from: the brokers and the client id {@code <prefix>-<client>}; the caller adds its own. */
    public Map<String, Object> clientConfig(String client) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId(client));
        return config;
    }

    /** The id of one of the desk's clients, as the broker sees it. */
    public String clientId(String client) {
        return clientIdPrefix + "-" + client;
    }
}
