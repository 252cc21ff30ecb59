package io.dlqdesk.app;

import io.dlqdesk.api.ApiConfiguration;
import io.dlqdesk.console.ConsoleConfiguration;
import io.dlqdesk.ingest.config.IngestConfiguration;
import io.dlqdesk.notifications.NotificationsConfiguration;
import io.dlqdesk.operations.OperationsConfiguration;
import io.dlqdesk.rebuild.RebuildConfiguration;
import io.dlqdesk.projections.ProjectionsConfiguration;
import io.dlqdesk.replay.config.ReplayConfiguration;
import io.dlqdesk.retention.RetentionConfiguration;
import io.dlqdesk.rollback.RollbackConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import({ProjectionsConfiguration.class, IngestConfiguration.class, ReplayConfiguration.class, RetentionConfiguration.class, RollbackConfiguration.class,
        OperationsConfiguration.class, RebuildConfiguration.class, ApiConfiguration.class, NotificationsConfiguration.class, ConsoleConfiguration.class})
@EnableConfigurationProperties({DeskProperties.class, KafkaEndpoint.class, ApplicationName.class, InstanceProperties.class})
public class DlqDeskApplication {

    public static void main(String[] args) {
        SpringApplication.run(DlqDeskApplication.class, args);
    }
}
