package io.dlqdesk.rollback.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.dlqdesk.kafka.KafkaConnection;
import io.dlqdesk.rollback.IngestSubscription;
import io.dlqdesk.rollback.RollbackConfiguration;
import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.check.RollbackChecker;
import io.dlqdesk.rollback.check.Verdict;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The rollback check without the service: straight against the database and the brokers, for when the
 * service is what is being rolled back. Configured like the service ({@code spring.datasource.*},
 * {@code spring.kafka.bootstrap-servers}, {@code dlqdesk.ingest.*}, {@code dlqdesk.rollback.*}) from
 * arguments, environment variables or a config file. Prints the report as JSON on stdout (logs go to
 * stderr); exits 0 READY, 1 NOT_READY, 2 UNKNOWN, also for anything that keeps it from checking.
 */
public final class RollbackCheckCommand {

    private RollbackCheckCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) {
        ReadinessReport report;
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(CommandConfiguration.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties(Map.of(
                        "logging.config", "classpath:io/dlqdesk/rollback/cli/logback-stderr.xml",
                        "spring.datasource.hikari.maximum-pool-size", "2",
                        "spring.datasource.hikari.connection-timeout", "10000",
                        "spring.application.name", "dlq-incident-desk"))
                // checked before anything is created: "not resolved: [spring.datasource.url]" beats a driver-class error
                .initializers(starting -> starting.getEnvironment().setRequiredProperties("spring.datasource.url", "spring.kafka.bootstrap-servers"))
                .run(args)) {
            report = context.getBean(RollbackChecker.class).check();
        } catch (Throwable e) { // an Error too: exit status 2, never 1
            report = ReadinessReport.couldNotCheck(Instant.now(), "cannot run the check: " + rootMessage(e));
        }
        try {
            out.println(new ObjectMapper().registerModule(new JavaTimeModule())
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(report));
        } catch (Exception e) {
            System.err.println("cannot write the report: " + e);
            return Verdict.UNKNOWN.exitCode();
        }
        out.flush();
        return report.verdict().exitCode();
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getName() : root.getMessage();
    }

    /** Only what the check needs: a DataSource from spring.datasource.*, and the checker. No Axon, no web server, no migrations. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DataSourceAutoConfiguration.class)
    @Import(RollbackConfiguration.class)
    static class CommandConfiguration {

        /** The service's spring.application.name: the command's Kafka client ids carry the same prefix unless told otherwise. */
        static final String DEFAULT_APPLICATION_NAME = "dlq-incident-desk";

        /** The ingest loop's settings, read under its names and with its defaults: the service's configuration works here unchanged. */
        @Bean
        IngestSubscription ingestSubscription(Environment environment) {
            Binder settings = Binder.get(environment);
            return IngestSubscription.of(
                    settings.bind("dlqdesk.ingest.group-id", String.class).orElse(IngestSubscription.DEFAULT_GROUP_ID),
                    settings.bind("dlqdesk.ingest.topic-pattern", String.class).orElse(IngestSubscription.DEFAULT_TOPIC_PATTERN));
        }

        /** The service's broker settings, under the same names; the client ids keep the service's default prefix. */
        @Bean
        KafkaConnection kafkaConnection(Environment environment) {
            Binder settings = Binder.get(environment);
            return new KafkaConnection(String.join(",", settings.bind("spring.kafka.bootstrap-servers", Bindable.listOf(String.class))
                    .orElse(List.of())), settings.bind("spring.application.name", String.class).orElse(DEFAULT_APPLICATION_NAME));
        }
    }
}
