package io.dlqdesk.app;

import io.dlqdesk.projections.ReadModelSet;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every table of every read model set, read whole for comparing two builds of them. */
final class ReadModelTables {

    private ReadModelTables() {
    }

    /** All rows in primary-key order, by table (counts of zero left out: netted deltas may leave them or not). */
    static Map<String, List<Map<String, Object>>> snapshot(JdbcTemplate jdbc) {
        Map<String, List<Map<String, Object>>> tables = new LinkedHashMap<>();
        for (ReadModelSet set : ReadModelSet.all()) {
            for (String table : set.tables()) {
                List<String> key = jdbc.queryForList("SELECT column_name FROM information_schema.key_column_usage WHERE table_schema = DATABASE()"
                        + " AND table_name = ? AND constraint_name = 'PRIMARY' ORDER BY ordinal_position", String.class, table);
                String where = table.equals("incident_count") ? " WHERE incidents <> 0" : "";
                tables.put(table, new ArrayList<>(jdbc.queryForList("SELECT * FROM " + table + where + " ORDER BY " + String.join(", ", key))));
            }
        }
        return tables;
    }
}
