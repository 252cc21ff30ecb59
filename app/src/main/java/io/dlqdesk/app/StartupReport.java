package io.dlqdesk.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Says, once the service is ready, where it serves and what it is connected to. */
@Component
class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    @EventListener
    void onReady(ApplicationReadyEvent event) {
        Environment env = event.getApplicationContext().getEnvironment();
        String address = env.getProperty("server.address", "0.0.0.0");
        String host = "0.0.0.0".equals(address) ? "localhost" : address;
        String base = "http://" + host + ":" + env.getProperty("local.server.port", "?");
        log.info("DLQ Incident Desk is up: {} (console: {}/console, health: {}/actuator/health)", base, base, base);
        log.info("database: {}; Kafka: {}; incident events topic: {}",
                withoutParameters(env.getProperty("spring.datasource.url")), env.getProperty("spring.kafka.bootstrap-servers"),
                env.getProperty("axon.kafka.default-topic"));
    }

    /** URL parameters may carry credentials. */
    private static String withoutParameters(String jdbcUrl) {
        return jdbcUrl == null ? null : jdbcUrl.replaceFirst("\\?.*", "");
    }
}
