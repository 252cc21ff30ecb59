package io.dlqdesk.notifications.source;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.projections.incident.ExceptionGroup;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The exception groups seen so far ({@code notification_exception_group}): a group is new exactly once, for the
 * transaction that inserts its row first (two segments racing on one group wait for each other's insert). Groups known
 * to be committed are also kept in a bounded memory, so a storm of one group costs no statement per event; an entry is
 * remembered only after its transaction committed.
 */
final class ExceptionGroupsSeen {

    private static final int REMEMBERED = 10_000;

    private final JdbcTemplate jdbc;
    private final Set<String> committed = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    }));

    ExceptionGroupsSeen(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether this is the group's first incident; in the caller's transaction. */
    boolean firstSeen(ExceptionGroup group, IncidentId incident, Instant at) {
        if (committed.contains(group.id())) {
            return false;
        }
        int inserted = jdbc.update("INSERT IGNORE INTO notification_exception_group (exception_group, first_incident_id, first_seen_at) VALUES (?, ?, ?)",
                group.id(), incident.value(), LocalDateTime.ofInstant(at, ZoneOffset.UTC));
        afterCommit(() -> committed.add(group.id()));
        return inserted == 1;
    }

    void clear() {
        jdbc.update("DELETE FROM notification_exception_group");
        committed.clear();
    }

    static void afterCommit(Runnable action) {
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().afterCommit(unitOfWork -> action.run());
        } else {
            action.run();
        }
    }
}
