package io.dlqdesk.operations.export;

import io.dlqdesk.domain.InvalidValueException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExportFormatTest {

    @Test
    void csvAndNdjsonAreTheFormatsInAnyCase() {
        assertThat(ExportFormat.parse("csv")).isEqualTo(ExportFormat.CSV);
        assertThat(ExportFormat.parse("NDJSON")).isEqualTo(ExportFormat.NDJSON);
    }

    @Test
    void anyOtherFormatOrNoneIsRefusedNamingTheAllowedOnes() {
        assertThatThrownBy(() -> ExportFormat.parse("xlsx")).isInstanceOf(InvalidValueException.class)
                .hasMessage("parameter 'format' must be csv or ndjson, was 'xlsx'");
        assertThatThrownBy(() -> ExportFormat.parse(null)).isInstanceOf(InvalidValueException.class)
                .hasMessage("parameter 'format' is required: csv or ndjson");
        assertThatThrownBy(() -> ExportFormat.parse("csv\r\nX-Forged: 1")).hasMessageNotContaining("\r").hasMessageNotContaining("\n");
    }
}
