package io.dlqdesk.app;

import io.dlqdesk.testsupport.TestInfrastructure;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;

/**
 * One fault test's names, all holding a nonce of its own, and its clean-up: the topics named with the
 * nonce are deleted after the test. Register it as a field: {@code @RegisterExtension final FaultRun run = new FaultRun("kill");}.
 */
final class FaultRun implements BeforeEachCallback, AfterEachCallback {

    /** How long a service process may take to become ready, on a machine also running the other tests' servers. */
    static final Duration START = Duration.ofMinutes(3);

    private final String prefix;
    private String nonce;

    FaultRun(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        nonce = prefix + System.nanoTime();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        FaultRuns.deleteTopicsOf(TestInfrastructure.shared().broker(), nonce);
    }

    String nonce() {
        return nonce;
    }

    /** The DLQ topic the service ingests (it reads {@code it-<nonce>-.*\.dlq}). */
    String dlqTopic() {
        return "it-" + nonce + "-orders.dlq";
    }

    /** A topic of the run's own, outside the ingest pattern. */
    String topic(String name) {
        return name + "-" + nonce;
    }

    /** The service's ingest consumer group. */
    String ingestGroup() {
        return "ingest-" + nonce;
    }
}
