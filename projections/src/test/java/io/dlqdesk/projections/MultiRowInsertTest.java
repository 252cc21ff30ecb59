package io.dlqdesk.projections;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MultiRowInsertTest {

    @Test
    void aFewSmallRowsAreOneBatch() {
        List<Object[]> rows = rows(3, "x");

        assertThat(MultiRowInsert.batches(rows)).containsExactly(rows);
    }

    @Test
    void rowsBeyondTheRowLimitGoIntoTheNextBatchInOrder() {
        List<Object[]> rows = rows(1_201, "x");

        List<List<Object[]>> batches = MultiRowInsert.batches(rows);

        assertThat(batches).extracting(List::size).containsExactly(500, 500, 201);
        assertThat(batches.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(rows);
    }

    @Test
    void largeValuesCutBatchesBeforeTheRowLimit() {
        String large = "v".repeat(100_000); // counted as 400,000 bytes: two rows fit in 1 MiB, a third does not
        List<Object[]> rows = rows(5, large);

        assertThat(MultiRowInsert.batches(rows)).extracting(List::size).containsExactly(2, 2, 1);
    }

    @Test
    void aRowLargerThanTheLimitIsABatchOfItsOwn() {
        List<Object[]> rows = List.of(new Object[] {"a", 1L}, new Object[] {"b".repeat(300_000), 2L}, new Object[] {"c", 3L});

        assertThat(MultiRowInsert.batches(rows)).extracting(List::size).containsExactly(1, 1, 1);
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        MultiRowInsert insert = new MultiRowInsert("t", "a, b", "b = VALUES(b)");

        assertThatThrownBy(() -> insert.write(null, List.<Object[]>of(new Object[] {"only one"})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 values for 2 columns");
    }

    private static List<Object[]> rows(int count, String text) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {text, (long) i});
        }
        return rows;
    }
}
