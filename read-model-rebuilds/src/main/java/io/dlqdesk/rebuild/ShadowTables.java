package io.dlqdesk.rebuild;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One read model set's tables in the shadow schema: created like the live ones, loaded without their secondary
 * (non-unique) indexes, indexed after the load, and swapped with the live ones by one {@code RENAME TABLE}, which MySQL and
 * MariaDB carry out atomically across schemas of one server. The live tables leave as {@code <table>_old} into the shadow
 * schema and are dropped after the swap. Unique indexes stay during the load: the writes' upserts rely on them.
 */
final class ShadowTables {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,60}");

    private final JdbcTemplate jdbc;
    private final String live;
    private final String shadow;
    private final List<String> tables;
    private final Map<String, List<String>> droppedIndexes = new LinkedHashMap<>();

    ShadowTables(JdbcTemplate jdbc, String liveSchema, String shadowSchema, List<String> tables) {
        this.jdbc = jdbc;
        this.live = name(liveSchema);
        this.shadow = name(shadowSchema);
        if (live.equals(shadow)) {
            throw new IllegalArgumentException("the shadow schema must not be the live one: " + live);
        }
        this.tables = tables.stream().map(ShadowTables::name).toList();
    }

    String shadowSchema() {
        return shadow;
    }

    /** Fresh shadow tables (leftovers of an earlier run dropped), shaped like the live ones less their secondary indexes. */
    void create() {
        try {
            jdbc.execute("CREATE DATABASE IF NOT EXISTS " + q(shadow));
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot create the shadow schema " + shadow + " for a bulk rebuild: grant the service's user"
                    + " CREATE, DROP, ALTER, INSERT, SELECT, UPDATE, DELETE and INDEX on it (dlqdesk.rebuild.shadow-schema)", e);
        }
        drop();
        for (String table : tables) {
            jdbc.execute("CREATE TABLE " + q(shadow) + "." + q(table) + " LIKE " + q(live) + "." + q(table));
            List<String> secondary = secondaryIndexes(table);
            droppedIndexes.put(table, secondary);
            if (!secondary.isEmpty()) {
                jdbc.execute("ALTER TABLE " + q(shadow) + "." + q(table) + " " + secondary.stream().map(index -> "DROP INDEX " + q(index))
                        .collect(Collectors.joining(", ")));
            }
        }
    }

    /** Adds back, one statement per table, the indexes {@link #create} dropped, as the live table defines them. */
    void index() {
        for (Map.Entry<String, List<String>> entry : droppedIndexes.entrySet()) {
            if (entry.getValue().isEmpty()) {
                continue;
            }
            List<String> clauses = new ArrayList<>();
            for (String index : entry.getValue()) {
                clauses.add("ADD INDEX " + q(index) + " (" + String.join(", ", indexColumns(entry.getKey(), index)) + ")");
            }
            jdbc.execute("ALTER TABLE " + q(shadow) + "." + q(entry.getKey()) + " " + String.join(", ", clauses));
        }
    }

    /** The live tables out (as {@code _old}, into the shadow schema) and the shadow ones in, in one statement. */
    void swap() {
        List<String> renames = new ArrayList<>();
        for (String table : tables) {
            renames.add(q(live) + "." + q(table) + " TO " + q(shadow) + "." + q(table + "_old"));
            renames.add(q(shadow) + "." + q(table) + " TO " + q(live) + "." + q(table));
        }
        jdbc.execute("RENAME TABLE " + String.join(", ", renames));
    }

    /** Whether every shadow table exists: a swap has not happened yet. */
    boolean loaded() {
        return overShadowTables("COUNT(*)") == tables.size();
    }

    long rowsEstimate() {
        return overShadowTables("COALESCE(SUM(table_rows), 0)");
    }

    /** Drops whatever this set has in the shadow schema: shadow tables and old live ones. */
    void drop() {
        for (String table : tables) {
            jdbc.execute("DROP TABLE IF EXISTS " + q(shadow) + "." + q(table) + ", " + q(shadow) + "." + q(table + "_old"));
        }
    }

    void dropOld() {
        for (String table : tables) {
            jdbc.execute("DROP TABLE IF EXISTS " + q(shadow) + "." + q(table + "_old"));
        }
    }

    /** {@code aggregate} over the rows information_schema has for this set's tables in the shadow schema. */
    private long overShadowTables(String aggregate) {
        List<Object> arguments = new ArrayList<>();
        arguments.add(shadow);
        arguments.addAll(tables);
        Long value = jdbc.queryForObject("SELECT " + aggregate + " FROM information_schema.tables WHERE table_schema = ? AND table_name IN ("
                + tables.stream().map(t -> "?").collect(Collectors.joining(", ")) + ")", Long.class, arguments.toArray());
        return value == null ? 0 : value;
    }

    private List<String> secondaryIndexes(String table) {
        return jdbc.queryForList("SELECT DISTINCT index_name FROM information_schema.statistics WHERE table_schema = ? AND table_name = ?"
                + " AND non_unique = 1 AND index_type = 'BTREE' ORDER BY index_name", String.class, live, table);
    }

    private List<String> indexColumns(String table, String index) {
        return jdbc.query("SELECT column_name, sub_part, collation FROM information_schema.statistics WHERE table_schema = ? AND table_name = ?"
                + " AND index_name = ? ORDER BY seq_in_index", (rs, n) -> {
            String column = q(rs.getString(1));
            long prefix = rs.getLong(2);
            String part = rs.wasNull() ? column : column + "(" + prefix + ")";
            return "D".equals(rs.getString(3)) ? part + " DESC" : part;
        }, live, table, index);
    }

    private static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a schema or table name this rebuild uses (letters, digits, _; at most 60): " + name);
        }
        return name;
    }

    private static String q(String name) {
        return "`" + name + "`";
    }
}
