package io.dlqdesk.bench;

import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A bench-only processor that does nothing with each event but deserialise it: what any Axon streaming
 * processor costs per event here (read, deserialise, dispatch, token), configured like a read model's.
 * The rebuild's floor: a read model's processor cannot be faster than this, and the rebuild runs two of them.
 */
@Configuration(proxyBeanMethods = false)
class AxonFloor {

    static final String PROCESSING_GROUP = "bench-floor";

    /** Its settings, as the read models' in application.yml. */
    static final String[] PROPERTIES = {
            "--axon.eventhandling.processors." + PROCESSING_GROUP + ".mode=pooled",
            "--axon.eventhandling.processors." + PROCESSING_GROUP + ".batch-size=1000",
            "--axon.eventhandling.processors." + PROCESSING_GROUP + ".initial-segment-count=2"};

    @Bean
    NoOpHandler benchFloorHandler() {
        return new NoOpHandler();
    }

    @ProcessingGroup(PROCESSING_GROUP)
    static class NoOpHandler {

        @EventHandler
        void on(Object payload) { // a payload parameter: the event is deserialised, as for a real handler
        }
    }
}
