package io.dlqdesk.replay.edit;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.edit.ProposeReplayEditCommand;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EditedContentTest {

    private static final byte[] VALUE = "{\"qty\":1}".getBytes(StandardCharsets.UTF_8);

    @Test
    void storedHeadersReadBackEqualAndTheHashCoversValueAndHeaders() {
        EditedContent content = new EditedContent(VALUE, List.of(new EditedContent.Header("tenant", "de".getBytes(StandardCharsets.UTF_8)),
                new EditedContent.Header("flag", null)));
        EditedContent stored = EditedContent.decode(VALUE.clone(), content.encodedHeaders());
        assertThat(stored).isEqualTo(content);
        assertThat(stored.hash()).isEqualTo(content.hash());

        EditedContent keptHeaders = new EditedContent(VALUE, null);
        assertThat(EditedContent.decode(VALUE, keptHeaders.encodedHeaders())).isEqualTo(keptHeaders);
        assertThat(keptHeaders.hash()).isNotEqualTo(content.hash()).isNotEqualTo(new EditedContent(VALUE, List.of()).hash());
        assertThat(new EditedContent("{\"qty\":2}".getBytes(StandardCharsets.UTF_8), null).hash()).isNotEqualTo(keptHeaders.hash());
        assertThat(content.valueHash()).isEqualTo(keptHeaders.valueHash());
    }

    @Test
    void theDesksOwnHeadersOversizedValuesAndTooManyHeadersAreRefusedAndTheLargestAllowedAreTaken() {
        assertThatThrownBy(() -> new EditedContent.Header("DLQ-Incident-Root", null)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new EditedContent.Header("a\nb", null)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new EditedContent.Header("h", new byte[EditedContent.MAX_HEADER_VALUE_BYTES + 1]))
                .isInstanceOf(InvalidValueException.class);
        assertThat(new EditedContent.Header("h", new byte[EditedContent.MAX_HEADER_VALUE_BYTES]).name()).isEqualTo("h");
        assertThatThrownBy(() -> new EditedContent(new byte[ProposeReplayEditCommand.MAX_EDITED_VALUE_BYTES + 1], null))
                .isInstanceOf(InvalidValueException.class);
        assertThat(new EditedContent(new byte[ProposeReplayEditCommand.MAX_EDITED_VALUE_BYTES], null).value()).hasSize(1_000_000);
        List<EditedContent.Header> many = java.util.stream.IntStream.range(0, EditedContent.MAX_HEADERS + 1)
                .mapToObj(i -> new EditedContent.Header("h" + i, null)).toList();
        assertThatThrownBy(() -> new EditedContent(VALUE, many)).isInstanceOf(InvalidValueException.class);
        assertThat(new EditedContent(VALUE, many.subList(0, EditedContent.MAX_HEADERS)).headers()).hasSize(EditedContent.MAX_HEADERS);
    }
}
