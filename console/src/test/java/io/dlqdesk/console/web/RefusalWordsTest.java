package io.dlqdesk.console.web;

import io.dlqdesk.domain.replay.ReplayRefusal;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RefusalWordsTest {

    /** A new refusal code must come with words: an operator is never shown a bare code alone. */
    @Test
    void everyRefusalCodeHasWordsOfItsOwn() {
        List<String> words = Arrays.stream(ReplayRefusal.values()).map(RefusalWords::of).toList();
        assertThat(words).allSatisfy(text -> assertThat(text).endsWith(".").hasSizeGreaterThan(20));
        assertThat(words).doesNotHaveDuplicates();
        assertThat(Arrays.stream(ReplayRefusal.values()).map(RefusalWords::of)).noneMatch(text -> text.matches("[A-Z_]+"));
    }

    @Test
    void aRefusalListKeepsItsOrderAndCodes() {
        assertThat(RefusalWords.of(List.of(ReplayRefusal.REPLAY_SWITCH_OFF, ReplayRefusal.AFTER_DEADLINE)))
                .extracting(RefusalWords.Refusal::code).containsExactly("REPLAY_SWITCH_OFF", "AFTER_DEADLINE");
    }
}
