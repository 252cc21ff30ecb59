package io.dlqdesk.app;

import io.dlqdesk.domain.incident.Ledger;
import io.dlqdesk.kafka.KafkaConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The settings every module takes as typed beans instead of looking the keys up itself: this ledger
 * (name, replay window) and how the desk's Kafka clients connect. Each is checked once, at start-up.
 */
@Configuration(proxyBeanMethods = false)
class DeploymentWiring {

    @Bean
    Ledger ledger(DeskProperties desk) {
        return new Ledger(desk.ledgerName(), desk.replayWindow());
    }

    @Bean
    KafkaConnection kafkaConnection(KafkaEndpoint kafka, ApplicationName application) {
        return new KafkaConnection(String.join(",", kafka.bootstrapServers()), application.name());
    }
}
