package io.dlqdesk.app;

import io.dlqdesk.ingest.config.IngestProperties;
import io.dlqdesk.rollback.IngestSubscription;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The rollback check looks at what ingest really reads: its group and DLQ topics, from the ingest loop's own settings. */
@Configuration(proxyBeanMethods = false)
class RollbackWiring {

    @Bean
    IngestSubscription rollbackIngestSubscription(IngestProperties ingest) {
        return IngestSubscription.of(ingest.groupId(), ingest.topicPattern());
    }
}
