package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.record.ExceptionSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ExceptionGroupTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "no price for order 4711                          | no price for order <n>",
            "card 4111-1111 declined                          | card <n>-<n> declined",
            "offset -1 is invalid                             | offset <n> is invalid",
            "order 7d0c6a3e-1b2f-4c3d-9e8f-0a1b2c3d4e5f gone  | order <uuid> gone",
            "hash 9f86d081884c7d65 mismatch                    | hash <hex> mismatch",
            "user 'alice' not allowed                         | user <value> not allowed",
            "took 1,234.5 ms    then   failed                 | took <n> ms then failed",
            "Connection refused                               | Connection refused"})
    void variablePartsOfAMessageBecomePlaceholders(String message, String fingerprint) {
        assertThat(ExceptionGroup.normalise(message)).isEqualTo(fingerprint);
    }

    @Test
    void theSameProblemOnOtherRecordsIsOneGroupAndAnotherClassOrMessageIsAnother() {
        ExceptionGroup a = ExceptionGroup.of(new ExceptionSummary("com.example.PriceMissing", "no price for order 1"));
        ExceptionGroup b = ExceptionGroup.of(new ExceptionSummary("com.example.PriceMissing", "no price for order 2"));
        assertThat(b).isEqualTo(a);
        assertThat(a.id()).matches(ExceptionGroup.ID_FORMAT.pattern());
        assertThat(ExceptionGroup.of(new ExceptionSummary("com.example.StockMissing", "no price for order 1")).id()).isNotEqualTo(a.id());
        assertThat(ExceptionGroup.of(new ExceptionSummary("com.example.PriceMissing", "no stock for order 1")).id()).isNotEqualTo(a.id());
    }

    @Test
    void aFailureWithoutAnExceptionIsInTheUnknownGroup() {
        assertThat(ExceptionGroup.of(null).exceptionClass()).isEqualTo("(unknown)");
        assertThat(ExceptionGroup.of(null)).isEqualTo(ExceptionGroup.of(null));
        assertThat(ExceptionGroup.of(new ExceptionSummary("X", null)).fingerprint()).isEmpty();
    }
}
