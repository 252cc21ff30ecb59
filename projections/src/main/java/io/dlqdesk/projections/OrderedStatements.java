package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Statements of one batch of events, each about one key (an incident, an attempt), run as JDBC batches. Statements
 * about one key keep their event order; statements about different keys touch different rows, so their order does
 * not matter. The n-th statement of every key goes in round n, and each round runs one JDBC batch per statement:
 * a batch whose keys each see one or two events is two or three round trips, whatever its size.
 * Batch update counts are never read: with {@code rewriteBatchedStatements} the driver does not know them.
 */
public final class OrderedStatements {

    private final Map<Object, Integer> statementsPerKey = new HashMap<>();
    private final List<Map<String, List<Object[]>>> rounds = new ArrayList<>();

    public void add(Object key, String sql, Object... arguments) {
        int round = statementsPerKey.merge(key, 1, Integer::sum) - 1;
        if (round == rounds.size()) {
            rounds.add(new LinkedHashMap<>());
        }
        rounds.get(round).computeIfAbsent(sql, s -> new ArrayList<>()).add(arguments);
    }

    public void run(JdbcTemplate jdbc) {
        for (Map<String, List<Object[]>> round : rounds) {
            round.forEach(jdbc::batchUpdate);
        }
    }
}
