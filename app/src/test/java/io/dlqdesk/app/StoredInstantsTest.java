package io.dlqdesk.app;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.axonframework.serialization.json.JacksonSerializer;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-read instants give what Jackson's own deserializer gives, value or error, for any input. */
class StoredInstantsTest {

    /** The shipped serializer's mapper without {@link StoredInstants}, for comparison. */
    private static final ObjectMapper JACKSON = AxonSerialization.jackson(new JavaTimeModule()).getObjectMapper();
    private static final ObjectMapper SHIPPED = ((JacksonSerializer) new AxonSerialization().serializer()).getObjectMapper();

    private static final Instant YEAR_0 = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant YEAR_9999 = Instant.parse("9999-12-31T23:59:59.999999999Z");

    @Property(tries = 3_000)
    void readsEveryInstantAsWrittenAsJacksonReadsIt(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seconds,
                                                    @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) throws Exception {
        Instant instant = Instant.ofEpochSecond(YEAR_0.getEpochSecond() + seconds % (YEAR_9999.getEpochSecond() - YEAR_0.getEpochSecond() + 1), nanos);
        String json = SHIPPED.writeValueAsString(instant);

        assertThat(StoredInstants.parse(json.substring(1, json.length() - 1))).as(json).isEqualTo(instant);
        assertThat(SHIPPED.readValue(json, Instant.class)).as(json).isEqualTo(JACKSON.readValue(json, Instant.class)).isEqualTo(instant);
    }

    @Property(tries = 3_000)
    void readsAnyTextAsJacksonDoes(@ForAll("nearlyInstants") String text) {
        String json = '"' + text + '"';
        assertThat(outcome(SHIPPED, json)).as(json).isEqualTo(outcome(JACKSON, json));
    }

    @Example
    void fractionsOfAnyLengthAndTheFormsLeftToJackson() {
        for (String text : new String[] {"2026-12-03T14:52:59.5Z", "2026-12-03T14:52:59.12345678Z", "2026-12-03T14:52:59.000000001Z",
                "2024-02-29T00:00:00Z", "2026-12-03t14:52:59z", "2026-12-03T15:52:59+01:00", "2016-12-31T23:59:60Z",
                "+10000-01-01T00:00:00Z", " 2026-12-03T14:52:59Z ", "2026-02-29T00:00:00Z", "2026-12-03T24:00:00Z", "2026-12-03T14:52:59.Z",
                "2026-12-03T14:52:59.1234567890Z", ""}) {
            String json = '"' + text + '"';
            assertThat(outcome(SHIPPED, json)).as(json).isEqualTo(outcome(JACKSON, json));
        }
        assertThat(StoredInstants.parse("2026-12-03T14:52:59.5Z")).isEqualTo(Instant.parse("2026-12-03T14:52:59.500Z"));
        assertThat(StoredInstants.parse("2026-02-29T00:00:00Z")).as("not a date: left to Jackson").isNull();
        assertThat(StoredInstants.parse("2026-12-03T15:52:59+01:00")).as("an offset: left to Jackson").isNull();
    }

    @Example
    void numbersAreLeftToJackson() throws Exception {
        assertThat(SHIPPED.readValue("1764773579.032995244", Instant.class)).isEqualTo(JACKSON.readValue("1764773579.032995244", Instant.class));
        assertThat(SHIPPED.readValue("1764773579", Instant.class)).isEqualTo(Instant.ofEpochSecond(1764773579));
    }

    @Example
    void theEventSerializerReadsInstantsWithIt() throws Exception {
        DeserializationContext context = ((DefaultDeserializationContext) SHIPPED.getDeserializationContext())
                .createInstance(SHIPPED.getDeserializationConfig(), null, null);
        assertThat(context.findRootValueDeserializer(SHIPPED.constructType(Instant.class))).isInstanceOf(StoredInstants.class);
    }

    /** Canonical instants with one character changed, dropped or doubled. */
    @Provide
    Arbitrary<String> nearlyInstants() {
        Arbitrary<String> canonical = Arbitraries.longs().between(YEAR_0.getEpochSecond(), YEAR_9999.getEpochSecond())
                .flatMap(seconds -> Arbitraries.integers().between(0, 999_999_999)
                        .map(nanos -> DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(seconds, nanos))));
        Arbitrary<Character> replacement = Arbitraries.of('0', '1', '2', '3', '5', '9', '-', ':', '.', 'T', 'Z', 'z', '+', ' ', 'x');
        return canonical.flatMap(text -> Arbitraries.integers().between(0, text.length() - 1).flatMap(at -> Arbitraries.integers().between(0, 2)
                .flatMap(edit -> replacement.map(c -> switch (edit) {
                    case 0 -> text.substring(0, at) + c + text.substring(at + 1);
                    case 1 -> text.substring(0, at) + text.substring(at + 1);
                    default -> text.substring(0, at) + c + text.substring(at);
                }))));
    }

    /** The instant read, or the kind of error. */
    private static String outcome(ObjectMapper mapper, String json) {
        try {
            return Objects.toString(mapper.readValue(json, Instant.class));
        } catch (Exception e) {
            return e.getClass().getName();
        }
    }
}
