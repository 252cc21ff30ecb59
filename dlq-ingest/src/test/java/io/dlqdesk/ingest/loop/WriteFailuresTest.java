package io.dlqdesk.ingest.loop;

import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

class WriteFailuresTest {

    @Test
    void aLostOrRefusedConnectionAnywhereInTheChainIsTheDatabases() {
        assertThat(WriteFailures.kindOf(new IllegalStateException("write failed", new SQLTransientConnectionException("not available"))))
                .isEqualTo(WriteFailures.Kind.CONNECTION);
        assertThat(WriteFailures.kindOf(new CannotGetJdbcConnectionException("refused"))).isEqualTo(WriteFailures.Kind.CONNECTION);
        assertThat(WriteFailures.kindOf(new CannotCreateTransactionException("no connection"))).isEqualTo(WriteFailures.Kind.CONNECTION);
        assertThat(WriteFailures.kindOf(new RuntimeException(new SQLRecoverableException("link failure")))).isEqualTo(WriteFailures.Kind.CONNECTION);
        assertThat(WriteFailures.kindOf(new SQLException("gone", "08S01"))).isEqualTo(WriteFailures.Kind.CONNECTION);
    }

    @Test
    void timeoutsLockWaitsAndDeadlocksAreTransient() {
        assertThat(WriteFailures.kindOf(new CannotAcquireLockException("lock wait"))).isEqualTo(WriteFailures.Kind.TRANSIENT);
        assertThat(WriteFailures.kindOf(new QueryTimeoutException("slow"))).isEqualTo(WriteFailures.Kind.TRANSIENT);
        assertThat(WriteFailures.kindOf(new RuntimeException(new SQLTimeoutException("timeout")))).isEqualTo(WriteFailures.Kind.TRANSIENT);
        assertThat(WriteFailures.kindOf(new SQLTransactionRollbackException("deadlock"))).isEqualTo(WriteFailures.Kind.TRANSIENT);
        assertThat(WriteFailures.kindOf(new RuntimeException(new SQLException("Lock wait timeout exceeded", "HY000", 1205))))
                .isEqualTo(WriteFailures.Kind.TRANSIENT);
        assertThat(WriteFailures.kindOf(new SQLException("Deadlock found", "40001", 1213))).isEqualTo(WriteFailures.Kind.TRANSIENT);
        // another writer created the incident first: the next try finds it, the record did nothing wrong
        assertThat(WriteFailures.kindOf(new AggregateStreamCreationException("incident inc-1 was created concurrently")))
                .isEqualTo(WriteFailures.Kind.TRANSIENT);
    }

    @Test
    void anythingElseIsTheRecordsOwnAndOnlyThatIsBounded() {
        WriteFailures.Kind refused = WriteFailures.kindOf(new UncategorizedSQLException("insert", "INSERT", new SQLException("refused", "45000", 1644)));
        assertThat(refused).isEqualTo(WriteFailures.Kind.RECORD);
        assertThat(refused.retriedWithoutBound()).isFalse();
        assertThat(WriteFailures.kindOf(new DataIntegrityViolationException("too long"))).isEqualTo(WriteFailures.Kind.RECORD);
        assertThat(WriteFailures.kindOf(new NullPointerException())).isEqualTo(WriteFailures.Kind.RECORD);
        assertThat(WriteFailures.Kind.CONNECTION.retriedWithoutBound()).isTrue();
        assertThat(WriteFailures.Kind.TRANSIENT.retriedWithoutBound()).isTrue();
    }

    @Test
    void aDescriptionNamesTheExceptionAndItsRootCause() {
        assertThat(WriteFailures.describe(new IllegalStateException("outer", new SQLException("refused by trigger"))))
                .isEqualTo("java.lang.IllegalStateException: outer (root cause java.sql.SQLException: refused by trigger)");
        assertThat(WriteFailures.describe(new IllegalStateException("alone"))).isEqualTo("java.lang.IllegalStateException: alone");
    }
}
