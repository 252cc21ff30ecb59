package io.dlqdesk.app;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** Jackson for every Axon serializer: events, messages, snapshots, tokens and sagas. */
@Configuration(proxyBeanMethods = false)
class AxonSerialization {

    /**
     * Our own mapper, not Spring MVC's: the stored form of events must not change when someone
     * tunes {@code spring.jackson.*}. Unknown properties are tolerated so that a rolled-back
     * version can still read events written by a newer one. Instants in the form this mapper writes are read by
     * {@link StoredInstants}.
     */
    @Bean
    @Primary
    Serializer serializer() {
        return jackson(new JavaTimeModule(), StoredInstants.module());
    }

    /** That serializer with these modules, in this order; {@code StoredInstantsTest} builds it without {@link StoredInstants}. */
    static JacksonSerializer jackson(Module... modules) {
        return JacksonSerializer.builder()
                .objectMapper(JsonMapper.builder()
                        .addModules(modules)
                        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .build())
                .lenientDeserialization()
                .build();
    }

    @Bean
    @Qualifier("eventSerializer")
    Serializer eventSerializer(Serializer serializer) {
        return serializer;
    }

    @Bean
    @Qualifier("messageSerializer")
    Serializer messageSerializer(Serializer serializer) {
        return serializer;
    }
}
