package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The rows of a batch's ids in one {@code IN (…)} query per 1,000 ids: a batch reads the stored rows it touches in one
 * round trip, and a longer list stays within what one statement should carry.
 */
public final class RowsByIds {

    static final int IDS_PER_QUERY = 1000;

    private RowsByIds() {
    }

    /** {@code selectWhere}: the query up to the id column, e.g. {@code SELECT a, b FROM t WHERE id}. */
    public static <T> List<T> read(JdbcTemplate jdbc, String selectWhere, Collection<String> ids, RowMapper<T> rows) {
        List<String> all = new ArrayList<>(ids);
        List<T> read = new ArrayList<>();
        for (int from = 0; from < all.size(); from += IDS_PER_QUERY) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + IDS_PER_QUERY));
            read.addAll(jdbc.query(selectWhere + " IN (" + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ")", rows,
                    chunk.toArray()));
        }
        return read;
    }
}
