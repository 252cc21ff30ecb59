package io.dlqdesk.app;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * The edges allowed between our modules (one package root per module), read from the compiled main
 * classes of every module. A new edge is a design decision: change this test with it, on purpose.
 */
class ModuleBoundariesTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dlqdesk");

    static LayeredArchitecture modules() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("incident-domain").definedBy("io.dlqdesk.domain..")
                .layer("dlq-record").definedBy("io.dlqdesk.record..")
                .layer("kafka-connection").definedBy("io.dlqdesk.kafka..")
                .layer("periodic-tasks").definedBy("io.dlqdesk.periodic..")
                .layer("command-batches").definedBy("io.dlqdesk.commandbatch..")
                .layer("projections").definedBy("io.dlqdesk.projections..")
                .layer("parked-events").definedBy("io.dlqdesk.parked..")
                .layer("read-model-rebuilds").definedBy("io.dlqdesk.rebuild..")
                .layer("log-escaping").definedBy("io.dlqdesk.logging..")
                .layer("dlq-ingest").definedBy("io.dlqdesk.ingest..")
                .layer("replay-saga").definedBy("io.dlqdesk.replay..")
                .layer("retention-guard").definedBy("io.dlqdesk.retention..")
                .layer("rollback-checker").definedBy("io.dlqdesk.rollback..")
                .layer("desk-operations").definedBy("io.dlqdesk.operations..")
                .layer("admin-api").definedBy("io.dlqdesk.api..")
                .layer("notifications").definedBy("io.dlqdesk.notifications..")
                .layer("console").definedBy("io.dlqdesk.console..")
                .layer("app").definedBy("io.dlqdesk.app..")
                .layer("test-support").definedBy("io.dlqdesk.testsupport..")
                .layer("dlq-desk-consumer").definedBy("io.dlqdesk.consumer..")

                .whereLayer("incident-domain").mayNotAccessAnyLayer()
                .whereLayer("dlq-record").mayOnlyAccessLayers("incident-domain")
                .whereLayer("kafka-connection").mayNotAccessAnyLayer()
                .whereLayer("periodic-tasks").mayNotAccessAnyLayer()
                .whereLayer("command-batches").mayNotAccessAnyLayer()
                .whereLayer("projections").mayOnlyAccessLayers("incident-domain", "parked-events")
                .whereLayer("parked-events").mayOnlyAccessLayers("incident-domain")
                // beside the processors: builds the projections' tables with their own handlers, parks as their queues do
                .whereLayer("read-model-rebuilds").mayOnlyAccessLayers("incident-domain", "projections", "parked-events", "periodic-tasks")
                // named only in logback configuration, never in code
                .whereLayer("log-escaping").mayNotAccessAnyLayer()
                .whereLayer("log-escaping").mayNotBeAccessedByAnyLayer()
                .whereLayer("dlq-ingest").mayOnlyAccessLayers("incident-domain", "dlq-record", "kafka-connection", "command-batches")
                .whereLayer("replay-saga").mayOnlyAccessLayers("incident-domain", "dlq-record", "kafka-connection", "periodic-tasks",
                        "command-batches")
                .whereLayer("retention-guard").mayOnlyAccessLayers("incident-domain", "projections", "kafka-connection", "periodic-tasks")
                .whereLayer("rollback-checker").mayOnlyAccessLayers("incident-domain", "projections", "parked-events", "replay-saga", "kafka-connection")
                // what both front doors call: reads and views, replays and jobs, redaction, page bounds, users and roles
                .whereLayer("desk-operations").mayOnlyAccessLayers("incident-domain", "projections", "dlq-ingest", "replay-saga")
                // the two front doors stand side by side on the operations: neither reaches into the other
                .whereLayer("admin-api").mayOnlyAccessLayers("incident-domain", "projections", "parked-events", "dlq-ingest", "replay-saga",
                        "desk-operations", "read-model-rebuilds")
                // the exception group of a failure is the read models' definition, so ids match the API and the gauges
                .whereLayer("notifications").mayOnlyAccessLayers("incident-domain", "projections", "periodic-tasks")
                .whereLayer("console").mayOnlyAccessLayers("incident-domain", "dlq-record", "projections", "parked-events", "dlq-ingest", "replay-saga",
                        "retention-guard", "rollback-checker", "desk-operations", "read-model-rebuilds")
                .whereLayer("app").mayOnlyAccessLayers("incident-domain", "dlq-record", "kafka-connection", "projections", "parked-events", "dlq-ingest", "replay-saga",
                        "retention-guard", "rollback-checker", "desk-operations", "admin-api", "notifications", "console", "periodic-tasks",
                        "read-model-rebuilds",
                        "command-batches")
                .whereLayer("test-support").mayNotBeAccessedByAnyLayer()
                // ships to other teams' services: it uses nothing of ours, and the desk does not use it
                .whereLayer("dlq-desk-consumer").mayNotAccessAnyLayer()
                .whereLayer("dlq-desk-consumer").mayNotBeAccessedByAnyLayer();
    }

    @Test
    void modulesDependOnlyAlongTheAllowedEdges() {
        modules().check(MAIN);
    }

    @Test
    void theDomainKnowsNoFrameworkButAxon() {
        noClasses().that().resideInAPackage("io.dlqdesk.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "org.apache.kafka..", "jakarta.persistence..",
                        "javax.persistence..", "org.hibernate..", "com.fasterxml.jackson..", "java.sql..", "javax.sql..")
                .because("the domain is rules only: storage, transport and serialisation live in the modules around it")
                .check(MAIN);
    }
}
