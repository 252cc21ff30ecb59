package io.dlqdesk.api;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.util.unit.DataSize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The API's JSON reader with the shipped limits: what no request body of ours needs is refused while parsing. */
class RequestLimitsTest {

    private static final RequestLimitProperties SHIPPED = new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("dlqdesk.api", RequestLimitProperties.class);

    private final ObjectMapper api = apiReader();

    private static ObjectMapper apiReader() {
        List<HttpMessageConverter<?>> converters = new ArrayList<>(List.of(new MappingJackson2HttpMessageConverter(new ObjectMapper())));
        new RequestLimits(SHIPPED).extendMessageConverters(converters);
        return ((MappingJackson2HttpMessageConverter) converters.get(0)).getObjectMapper();
    }

    @Test
    void theShippedLimits() {
        assertThat(SHIPPED.maxBodySize()).isEqualTo(DataSize.ofKilobytes(16));
        assertThat(SHIPPED.maxReplayJobBodySize()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(SHIPPED.maxEditBodySize()).isEqualTo(DataSize.ofMegabytes(3));
        assertThat(SHIPPED.maxBodyTokens()).isEqualTo(25_000);
    }

    @Test
    void nestingBeyondTheLimitIsRefusedAndWithinItIsRead() throws Exception {
        assertThatThrownBy(() -> api.readTree("[".repeat(RequestLimits.MAX_NESTING + 1) + "]".repeat(RequestLimits.MAX_NESTING + 1)))
                .isInstanceOf(StreamConstraintsException.class).hasMessageContaining("nesting depth");
        JsonNode deepest = api.readTree("[".repeat(RequestLimits.MAX_NESTING) + "]".repeat(RequestLimits.MAX_NESTING));
        assertThat(deepest.isArray()).isTrue();
    }

    @Test
    void tokensBeyondTheLimitAreRefusedAndWithinItAreRead() throws Exception {
        assertThatThrownBy(() -> api.readTree("[" + "1,".repeat(SHIPPED.maxBodyTokens()) + "1]"))
                .isInstanceOf(StreamConstraintsException.class).hasMessageContaining("Token count");
        assertThat(api.readTree("[" + "1,".repeat(SHIPPED.maxBodyTokens() - 10) + "1]").size()).isEqualTo(SHIPPED.maxBodyTokens() - 9);
    }

    record Reason(String reason) {
    }

    @Test
    void aFieldTheRequestDoesNotTakeIsRefused() throws Exception {
        assertThatThrownBy(() -> api.readValue("{\"reason\":\"a\",\"reson\":\"b\"}", Reason.class))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("reson");
        assertThat(api.readValue("{\"reason\":\"a\"}", Reason.class).reason()).isEqualTo("a");
    }

    @Test
    void theSharedMapperIsLeftAsItWas() throws Exception {
        // as Spring Boot builds it: unknown properties ignored
        ObjectMapper shared = new ObjectMapper().configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        List<HttpMessageConverter<?>> converters = new ArrayList<>(List.of(new MappingJackson2HttpMessageConverter(shared)));
        new RequestLimits(SHIPPED).extendMessageConverters(converters);
        // Axon's serializer and the rest of the application keep reading without the API's limits
        assertThat(shared.readTree("[".repeat(40) + "]".repeat(40)).isArray()).isTrue();
        assertThat(shared.readValue("{\"reason\":\"a\",\"reson\":\"b\"}", Reason.class).reason()).isEqualTo("a");
    }
}
