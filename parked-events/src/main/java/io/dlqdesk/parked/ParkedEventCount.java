package io.dlqdesk.parked;

import org.springframework.jdbc.core.JdbcTemplate;

/** How many events one processing group holds parked: a read for checks that run without the service (the rollback CLI). */
public final class ParkedEventCount {

    private final JdbcTemplate jdbc;

    public ParkedEventCount(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public long in(String processingGroup) {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM " + ParkedEventTable.TABLE + " WHERE processing_group = ?", Long.class,
                processingGroup);
        return count == null ? 0 : count;
    }
}
