package io.dlqdesk.bench;

import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Bench-only: while switched on, every event handler of the service is skipped, in every processor (or in every processor
 * but one). The processors still read each event, match it to their handlers and advance their tokens in their
 * transactions, as configured; only the handlers' work (deserialising the event, the read models' rows, the saga's
 * lookups, the publisher's sends) is left out. Ingest's floor: no ingest whose events these processors handle can be
 * faster than ingest with this on; with the incident list's processor left working, no ingest can reach the list sooner.
 */
@Configuration(proxyBeanMethods = false)
class IdleHandlers {

    /** No processor ({@code null}: handlers run), every processor ({@code ""}), or every processor but the one named. */
    private final AtomicReference<String> idleBut = new AtomicReference<>();

    void set(boolean on) {
        idleBut.set(on ? "" : null);
    }

    /** Every handler skipped but those of {@code processor}. */
    void allBut(String processor) {
        idleBut.set(processor);
    }

    @Bean
    ConfigurerModule idleHandlersInterceptor() {
        return configurer -> configurer.eventProcessing().registerDefaultHandlerInterceptor((config, processor) -> skipWhileIdle(processor));
    }

    private MessageHandlerInterceptor<EventMessage<?>> skipWhileIdle(String processor) {
        return (unitOfWork, chain) -> {
            String working = idleBut.get();
            return working == null || working.equals(processor) ? chain.proceed() : null;
        };
    }
}
