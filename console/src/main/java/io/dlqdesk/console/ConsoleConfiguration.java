package io.dlqdesk.console;

import io.dlqdesk.console.record.DlqRecords;
import io.dlqdesk.console.record.RecordRenderer;
import io.dlqdesk.console.web.AuditPages;
import io.dlqdesk.console.web.ConsoleAdvice;
import io.dlqdesk.console.web.IncidentActions;
import io.dlqdesk.console.web.IncidentPages;
import io.dlqdesk.console.web.LoginPage;
import io.dlqdesk.console.web.OverviewPage;
import io.dlqdesk.console.web.ParkedEventPages;
import io.dlqdesk.console.web.RebuildPages;
import io.dlqdesk.console.web.ReplayJobPages;
import io.dlqdesk.console.web.QuarantinePages;
import io.dlqdesk.console.web.ReplaySwitchPage;
import io.dlqdesk.console.web.RetentionPage;
import io.dlqdesk.console.web.RollbackPage;
import io.dlqdesk.operations.record.HeaderRedaction;
import io.dlqdesk.replay.source.SourceRecordReader;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The operator console: server-rendered pages under {@code /console} over the operations the REST API calls too
 * (desk-operations), the replay switch, the retention guard and the rollback check, with form login and a session of
 * their own ({@link ConsoleSecurity}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ConsoleProperties.class)
@Import({ConsoleSecurity.class, ConsoleAccess.class, ConsoleAdvice.class, LoginPage.class, OverviewPage.class, IncidentPages.class, ParkedEventPages.class, RebuildPages.class, ReplayJobPages.class,
        IncidentActions.class, QuarantinePages.class, AuditPages.class, RetentionPage.class, ReplaySwitchPage.class, RollbackPage.class})
public class ConsoleConfiguration {

    /** Header values withheld as the API withholds them. */
    @Bean
    RecordRenderer consoleRecordRenderer(ConsoleProperties properties, HeaderRedaction redaction) {
        return new RecordRenderer((int) properties.recordDisplayLimit().toBytes(), redaction);
    }

    /** Replay's own source-record reader (bounded, never commits), pointed at the DLQ record's location. */
    @Bean
    DlqRecords consoleDlqRecords(SourceRecordReader reader, RecordRenderer renderer) {
        return new DlqRecords(reader, renderer);
    }
}
