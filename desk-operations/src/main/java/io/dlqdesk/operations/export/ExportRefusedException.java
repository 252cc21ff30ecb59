package io.dlqdesk.operations.export;

import java.time.Duration;
import java.util.Locale;

/** An export not started: it would hold more incidents than allowed, or as many exports run as may. Nothing was sent. */
public final class ExportRefusedException extends RuntimeException {

    public enum Reason {
        /** 422: narrow the filters. */
        TOO_MANY_ROWS,
        /** 429: try again later. */
        BUSY
    }

    /** How long a refused caller should wait before asking again while the exports running now end. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    private final Reason reason;
    private final long rows;
    private final long maxRows;

    private ExportRefusedException(Reason reason, String message, long rows, long maxRows) {
        super(message);
        this.reason = reason;
        this.rows = rows;
        this.maxRows = maxRows;
    }

    static ExportRefusedException tooManyRows(long rows, long maxRows) {
        return new ExportRefusedException(Reason.TOO_MANY_ROWS, String.format(Locale.ROOT, "the filters match %,d incidents and an export holds at most %,d"
                + " (dlqdesk.export.max-rows): narrow the filters, e.g. by detectedFrom and detectedTo", rows, maxRows), rows, maxRows);
    }

    static ExportRefusedException busy(int running) {
        return new ExportRefusedException(Reason.BUSY, running + " export(s) are running on this instance, as many as may"
                + " (dlqdesk.export.max-concurrent): try again in " + RETRY_AFTER.toSeconds() + " s", -1, -1);
    }

    public Reason reason() {
        return reason;
    }

    /** The incidents the filters match (TOO_MANY_ROWS only, else -1). */
    public long rows() {
        return rows;
    }

    /** The bound they are over (TOO_MANY_ROWS only, else -1). */
    public long maxRows() {
        return maxRows;
    }
}
