package io.dlqdesk.bench;

import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bench-only: while switched on, every event handler of the service is skipped, in every processor. The processors
 * still read each event, match it to their handlers and advance their tokens in their transactions, as configured;
 * only the handlers' work (deserialising the event, the read models' rows, the saga's lookups, the publisher's sends)
 * is left out. Ingest's floor: no ingest whose events these processors handle can be faster than ingest with this on.
 */
@Configuration(proxyBeanMethods = false)
class IdleHandlers {

    private final AtomicBoolean idle = new AtomicBoolean();

    void set(boolean on) {
        idle.set(on);
    }

    @Bean
    ConfigurerModule idleHandlersInterceptor() {
        MessageHandlerInterceptor<EventMessage<?>> skipWhileIdle = (unitOfWork, chain) -> idle.get() ? null : chain.proceed();
        return configurer -> configurer.eventProcessing().registerDefaultHandlerInterceptor((config, processingGroup) -> skipWhileIdle);
    }
}
