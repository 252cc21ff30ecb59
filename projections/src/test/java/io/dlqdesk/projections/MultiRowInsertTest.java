package io.dlqdesk.projections;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** How rows are cut into statements; that the rows are stored is ProjectionBatchingIT's and ReadModelIT's. */
class MultiRowInsertTest {

    @Test
    void manyRowsAreCutIntoStatementsOfAtMostMaxRowsInOrder() {
        List<Object[]> rows = rows(2 * MultiRowInsert.MAX_ROWS + 1, "x");

        assertThat(cuts(rows)).containsExactly(MultiRowInsert.MAX_ROWS, MultiRowInsert.MAX_ROWS, 1);
    }

    @Test
    void largeRowsAreCutByTheirSizeAndOneLargerThanTheLimitStandsAlone() {
        String quarterOfTheLimit = "y".repeat(MultiRowInsert.MAX_BYTES / 16 - 100); // four bytes counted per character: four fit
        List<Object[]> rows = new ArrayList<>(rows(5, quarterOfTheLimit));
        rows.add(new Object[] {"z".repeat(MultiRowInsert.MAX_BYTES), 1L});
        rows.add(new Object[] {"small", 2L});

        assertThat(cuts(rows)).containsExactly(4, 1, 1, 1);
    }

    @Test
    void aFewRowsAreOneStatement() {
        assertThat(cuts(rows(3, "x"))).containsExactly(3);
        assertThat(cuts(List.of())).isEmpty();
    }

    /** The rows of each statement, in order, as {@code write} cuts them. */
    private static List<Integer> cuts(List<Object[]> rows) {
        List<Integer> sizes = new ArrayList<>();
        for (int from = 0; from < rows.size(); ) {
            int to = MultiRowInsert.end(rows, from);
            assertThat(to).isGreaterThan(from);
            sizes.add(to - from);
            from = to;
        }
        return sizes;
    }

    private static List<Object[]> rows(int count, String text) {
        return IntStream.range(0, count).mapToObj(i -> new Object[] {text, (long) i, null}).toList();
    }
}
