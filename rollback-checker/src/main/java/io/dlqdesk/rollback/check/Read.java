package io.dlqdesk.rollback.check;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** One read of the database or the brokers: its value, or why there is none (then the conditions that need it are UNKNOWN). */
record Read<T>(T value, String error) {

    static <T> Read<T> of(T value) {
        return new Read<>(value, null);
    }

    static <T> Read<T> failed(String error) {
        return new Read<>(null, error);
    }

    boolean failed() {
        return error != null;
    }

    /**
     * A failure as an explanation shows it: a reference to the log line that holds its type, message and causes. The
     * explanation reaches DEPLOYER credentials and pipeline logs, which must not learn hosts, SQL or driver text from it.
     */
    static String logged(String what, Throwable failure) {
        String reference = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        Holder.log.warn("{} (error {})", what, reference, failure);
        return what + " (error " + reference + "; the cause is in the service log)";
    }

    private static final class Holder {
        private static final Logger log = LoggerFactory.getLogger(Read.class);
    }
}
