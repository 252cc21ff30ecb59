package io.dlqdesk.rollback.source;

import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.MergedTrackingToken;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Axon's real token types, as the token table holds them. */
class TokenProgressTest {

    @Test
    void withoutGapsTheIndexIsHowFarItRead() {
        assertThat(TokenProgress.processedUpTo(GapAwareTrackingToken.newInstance(120, List.of()), index -> true)).isEqualTo(120);
    }

    @Test
    void aGapWhoseEventHasCommittedSinceHoldsTheProgressJustBelowIt() {
        TrackingToken token = GapAwareTrackingToken.newInstance(120, List.of(100L, 110L));

        assertThat(TokenProgress.processedUpTo(token, index -> index == 110)).isEqualTo(109);
        assertThat(TokenProgress.processedUpTo(token, index -> index == 100 || index == 110)).isEqualTo(99);
    }

    @Test
    void aGapWithNoEventHoldsNothingBack() {
        TrackingToken token = GapAwareTrackingToken.newInstance(120, List.of(100L));

        assertThat(TokenProgress.processedUpTo(token, index -> false)).isEqualTo(120);
    }

    @Test
    void aReplayingTokenHasReadOnlyAsFarAsItsCurrentToken() {
        TrackingToken replay = ReplayToken.createReplayToken(GapAwareTrackingToken.newInstance(500, List.of()),
                GapAwareTrackingToken.newInstance(40, List.of(30L)));

        assertThat(TokenProgress.processedUpTo(replay, index -> true)).isEqualTo(29);
        assertThat(TokenProgress.gaps(replay)).containsExactly(30L);
    }

    @Test
    void aMergeHasReadAsFarAsItsSlowerHalf() {
        TrackingToken merged = new MergedTrackingToken(GapAwareTrackingToken.newInstance(80, List.of()),
                GapAwareTrackingToken.newInstance(95, List.of(90L)));

        assertThat(TokenProgress.processedUpTo(merged, index -> false)).isEqualTo(80);
        assertThat(TokenProgress.processedUpTo(merged, index -> index == 90)).isEqualTo(80);
        assertThat(TokenProgress.gaps(merged)).isEqualTo(Set.of(90L));
    }

    @Test
    void noTokenHasReadNothing() {
        assertThat(TokenProgress.processedUpTo(null, index -> true)).isEqualTo(-1);
        assertThat(TokenProgress.processedUpTo(new GlobalSequenceTrackingToken(7), index -> true)).isEqualTo(7);
    }

    @Test
    void tokensStoredByJacksonComeBackWithTheirGaps() {
        JacksonSerializer serializer = JacksonSerializer.defaultSerializer();
        SerializedObject<byte[]> stored = serializer.serialize(GapAwareTrackingToken.newInstance(120, List.of(100L)), byte[].class);

        TrackingToken read = serializer.deserialize(new SimpleSerializedObject<>(stored.getData(), byte[].class, stored.getType().getName(), null));

        assertThat(TokenProgress.processedUpTo(read, index -> index == 100)).isEqualTo(99);
    }
}
