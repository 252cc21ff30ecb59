package io.dlqdesk.bench;

import com.mysql.cj.MysqlConnection;
import com.mysql.cj.Query;
import com.mysql.cj.interceptors.QueryInterceptor;
import com.mysql.cj.log.Log;
import com.mysql.cj.protocol.Message;
import com.mysql.cj.protocol.Resultset;
import com.mysql.cj.protocol.ServerSession;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Bench-only Connector/J query interceptor (the product's {@code queryInterceptors} data-source property, set by
 * {@link ProductUnderTest}): counts every command the driver sends to the database (a statement, a commit, an
 * autocommit switch: one round trip each) by the component whose thread sent it, grouped as {@link CpuWork} groups CPU.
 * The server's counters ({@link DatabaseWork}) say how many; this says whose ({@link DatabaseWork} takes the per-item figures).
 */
public final class RoundTrips implements QueryInterceptor {

    private static final Map<String, LongAdder> BY_COMPONENT = new ConcurrentHashMap<>();

    /** Round trips by component so far. */
    static Map<String, Long> snapshot() {
        Map<String, Long> counts = new LinkedHashMap<>();
        BY_COMPONENT.forEach((component, count) -> counts.put(component, count.sum()));
        return counts;
    }

    @Override
    public QueryInterceptor init(MysqlConnection connection, Properties properties, Log log) {
        return this;
    }

    /** Every command packet, whatever sent it: counted once here, not again in the statement-level callback. */
    @Override
    public <M extends Message> M preProcess(M queryPacket) {
        BY_COMPONENT.computeIfAbsent(CpuWork.component(Thread.currentThread().getName()), component -> new LongAdder()).increment();
        return null;
    }

    @Override
    public <T extends Resultset> T preProcess(Supplier<String> sql, Query interceptedQuery) {
        return null;
    }

    @Override
    public boolean executeTopLevelOnly() {
        return false;
    }

    @Override
    public void destroy() {
        // nothing held
    }

    @Override
    public <T extends Resultset> T postProcess(Supplier<String> sql, Query interceptedQuery, T originalResultSet, ServerSession serverSession) {
        return null;
    }
}
