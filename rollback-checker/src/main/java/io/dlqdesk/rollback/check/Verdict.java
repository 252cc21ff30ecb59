package io.dlqdesk.rollback.check;

/** The answer to "may we roll back now?". UNKNOWN means the check could not tell: a deploy treats it as NOT_READY. */
public enum Verdict {
    READY(0), NOT_READY(1), UNKNOWN(2);

    private final int exitCode;

    Verdict(int exitCode) {
        this.exitCode = exitCode;
    }

    /** The command-line entry point's exit status for this verdict. */
    public int exitCode() {
        return exitCode;
    }
}
