package io.dlqdesk.record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The exceptions of a stack trace as {@code Throwable.printStackTrace} writes it: the first line, then every line that
 * starts with {@code Caused by: }, in that order. Indented lines are left out: they are frames, or a suppressed exception
 * and its causes. A line that names no Java class (a {@code [CIRCULAR REFERENCE: …]}, a message that spilled onto its
 * own line) ends the chain there.
 */
public final class StackTraceText {

    /** One exception of the chain: its class and its message's bytes (null when the line has none). */
    public record Thrown(String exceptionClass, byte[] message) {
    }

    private static final byte[] CAUSED_BY = "Caused by: ".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern CLASS_NAME = Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
            + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");
    /** Enough of a chain for any use here: the top exception and the cause under a wrapper. */
    private static final int MAX_CHAIN = 8;

    private StackTraceText() {
    }

    /**
     * The chain of {@code trace}, top first; empty when even its first line names no class. Class names longer than
     * {@code maxClassBytes} and messages longer than {@code maxMessageBytes} are cut there (a later bound cuts them again).
     */
    public static List<Thrown> chain(byte[] trace, int maxClassBytes, int maxMessageBytes) {
        List<Thrown> chain = new ArrayList<>();
        if (trace == null) {
            return chain;
        }
        int line = 0;
        boolean first = true;
        while (line < trace.length && chain.size() < MAX_CHAIN) {
            int end = endOfLine(trace, line);
            if (first || startsWith(trace, line, CAUSED_BY)) {
                Thrown thrown = thrown(trace, first ? line : line + CAUSED_BY.length, end, maxClassBytes, maxMessageBytes);
                if (thrown == null) {
                    break;
                }
                chain.add(thrown);
                first = false;
            }
            line = end + 1;
        }
        return chain;
    }

    private static Thrown thrown(byte[] trace, int start, int end, int maxClassBytes, int maxMessageBytes) {
        int colon = start;
        while (colon < end && trace[colon] != ':') {
            colon++;
        }
        if (colon - start > maxClassBytes) {
            return null; // no class name is that long
        }
        String exceptionClass = DltHeaderReader.strictUtf8(Arrays.copyOfRange(trace, start, colon));
        if (exceptionClass == null || !CLASS_NAME.matcher(exceptionClass).matches()) {
            return null;
        }
        int messageStart = colon + 2; // after ": "
        byte[] message = messageStart <= end ? Arrays.copyOfRange(trace, messageStart, Math.min(end, messageStart + maxMessageBytes)) : null;
        return new Thrown(exceptionClass, message);
    }

    private static int endOfLine(byte[] trace, int from) {
        int at = from;
        while (at < trace.length && trace[at] != '\n') {
            at++;
        }
        return at > from && trace[at - 1] == '\r' ? at - 1 : at;
    }

    private static boolean startsWith(byte[] trace, int at, byte[] prefix) {
        if (at + prefix.length > trace.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (trace[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
