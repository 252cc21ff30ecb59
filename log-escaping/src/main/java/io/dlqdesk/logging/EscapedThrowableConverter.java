package io.dlqdesk.logging;

import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter;

/**
 * {@code %escapedException}: Spring Boot's exception layout (a blank line around the stack trace, frames with their jar),
 * with each exception's own message escaped ({@link LogEscaping}); the frames and "Caused by" lines are the layout's, one a
 * line, as always. An exception message often quotes what it failed on, and that is outside data too.
 */
public class EscapedThrowableConverter extends ExtendedWhitespaceThrowableProxyConverter {

    @Override
    protected String throwableProxyToString(IThrowableProxy throwable) {
        return super.throwableProxyToString(throwable == null ? null : new Escaped(throwable));
    }

    /** The same exception, its message (and its causes' and suppressed ones') escaped. */
    private record Escaped(IThrowableProxy throwable) implements IThrowableProxy {

        @Override
        public String getMessage() {
            return LogEscaping.escape(throwable.getMessage());
        }

        @Override
        public String getClassName() {
            return throwable.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return throwable.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return throwable.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            return throwable.getCause() == null ? null : new Escaped(throwable.getCause());
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] suppressed = throwable.getSuppressed();
            if (suppressed == null) {
                return null;
            }
            IThrowableProxy[] escaped = new IThrowableProxy[suppressed.length];
            for (int i = 0; i < suppressed.length; i++) {
                escaped[i] = new Escaped(suppressed[i]);
            }
            return escaped;
        }

        @Override
        public boolean isCyclic() {
            return throwable.isCyclic();
        }
    }
}
