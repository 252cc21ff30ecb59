package io.dlqdesk.projections.asof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AsOfCursorTest {

    @Test
    void aTokenHandedOutNamesTheSameCursor() {
        var cursor = new AsOfCursor(1_764_489_600_123_456_789L, "inc-0123456789abcdef0123456789abcdef");

        assertThat(AsOfCursor.of(cursor.token())).isEqualTo(cursor);
        assertThat(cursor.token()).matches("[A-Za-z0-9_-]+");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "%%%", "bm90LW91cnM", "MTIzOmluYydvcg", "OTk5OTk5OTk5OTk5OTk5OTk5OTk6aW5jLTE", "OTk5OTk5OTk5OTk5OTk5OTk5OTppbmMtMQ"})
    void anyOtherTokenIsRefusedSayingWhatWasExpected(String token) {
        assertThatThrownBy(() -> AsOfCursor.of(token)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'after' must be the 'next' token of a previous page");
    }

    @Test
    void anIncidentIdWithCharactersNoIdHasIsRefused() {
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString("5:inc-1' OR 1=1".getBytes(StandardCharsets.US_ASCII));

        assertThatThrownBy(() -> AsOfCursor.of(token)).isInstanceOf(IllegalArgumentException.class);
    }
}
