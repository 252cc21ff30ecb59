package io.dlqdesk.ingest.loop;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class PartitionProgressTest {

    /** The source write-up's three examples: received 10, 12, 15. */
    @Test
    void nothingIsCommittableWhileTheFirstReceivedRecordIsIncomplete() {
        PartitionProgress progress = received(10, 12, 15);
        progress.completed(12);
        progress.completed(15);
        assertThat(progress.toCommit()).isEmpty();
    }

    @Test
    void aGapInOffsetsDoesNotHoldThePrefixButAnIncompleteRecordDoes() {
        PartitionProgress progress = received(10, 12, 15);
        progress.completed(10);
        progress.completed(15);
        assertThat(progress.toCommit()).hasValue(11);
    }

    @Test
    void whenEverythingIsDoneThePositionIsAfterTheLastRecord() {
        PartitionProgress progress = received(10, 12, 15);
        progress.completed(10);
        progress.completed(12);
        progress.completed(15);
        assertThat(progress.toCommit()).hasValue(16);
        progress.commitSucceeded(16);
        assertThat(progress.awaitingCommit()).isZero();
    }

    @Test
    void recordsDoneButNotYetCommittedStillCountAsAwaitingCommit() {
        PartitionProgress progress = received(1, 2);
        progress.completed(1);
        progress.completed(2);
        assertThat(progress.awaitingCommit()).isEqualTo(2);
        progress.commitSucceeded(3);
        assertThat(progress.awaitingCommit()).isZero();
    }

    @Test
    void aCommittedPositionIsNotOfferedAgain() {
        PartitionProgress progress = received(3);
        progress.completed(3);
        progress.commitSucceeded(4);
        assertThat(progress.toCommit()).isEmpty();
        progress.received(9);
        progress.completed(9);
        assertThat(progress.toCommit()).hasValue(10);
    }

    @Test
    void rewoundRecordsAreForgottenAndMayBeReceivedAgain() {
        PartitionProgress progress = received(5, 6, 7);
        progress.completed(5);
        progress.rewindTo(6);
        assertThat(progress.awaitingCommit()).isEqualTo(1); // 5: done, not committed
        assertThat(progress.toCommit()).hasValue(6);
        progress.received(6);
        assertThat(progress.awaitingCommit()).isEqualTo(2);
    }

    @Test
    void offsetsMustArriveInIncreasingOrder() {
        PartitionProgress progress = received(5);
        assertThatIllegalStateException().isThrownBy(() -> progress.received(5));
        assertThatIllegalStateException().isThrownBy(() -> progress.received(4));
        progress.received(6);
        assertThat(progress.awaitingCommit()).isEqualTo(2);
    }

    /**
     * Random gaps and completion orders: after every completion, the position offered never passes a
     * received record that is not complete, and equals the end of the completed prefix at once.
     */
    @Property(tries = 300)
    void theCommittedPositionIsAlwaysTheEndOfTheCompletedPrefix(@ForAll("receivedAndCompletionOrder") Scenario scenario) {
        PartitionProgress progress = new PartitionProgress();
        scenario.received().forEach(progress::received);
        List<Long> completedSoFar = new ArrayList<>();
        long committed = -1;
        for (long offset : scenario.completionOrder()) {
            progress.completed(offset);
            completedSoFar.add(offset);

            long expected = -1;
            for (long received : scenario.received()) {
                if (!completedSoFar.contains(received)) {
                    break;
                }
                expected = received + 1;
            }
            OptionalLong offered = progress.toCommit();
            if (expected > committed) {
                assertThat(offered).hasValue(expected);
                progress.commitSucceeded(expected);
                committed = expected;
            } else {
                assertThat(offered).isEmpty();
            }
            long position = committed;
            assertThat(scenario.received()).filteredOn(received -> received < position).allMatch(completedSoFar::contains);
        }
        assertThat(progress.awaitingCommit()).isZero();
    }

    record Scenario(List<Long> received, List<Long> completionOrder) {
    }

    @Provide
    Arbitrary<Scenario> receivedAndCompletionOrder() {
        Arbitrary<List<Integer>> gaps = Arbitraries.integers().between(1, 5).list().ofMinSize(1).ofMaxSize(40);
        Arbitrary<Long> start = Arbitraries.longs().between(0, 1_000_000);
        Arbitrary<Long> seed = Arbitraries.longs();
        return Combinators.combine(gaps, start, seed).as((steps, first, shuffleSeed) -> {
            List<Long> received = new ArrayList<>();
            long offset = first;
            for (int step : steps) {
                received.add(offset);
                offset += step;
            }
            List<Long> order = new ArrayList<>(received);
            Collections.shuffle(order, new Random(shuffleSeed));
            return new Scenario(List.copyOf(received), List.copyOf(order));
        });
    }

    private static PartitionProgress received(long... offsets) {
        PartitionProgress progress = new PartitionProgress();
        for (long offset : offsets) {
            progress.received(offset);
        }
        return progress;
    }
}
