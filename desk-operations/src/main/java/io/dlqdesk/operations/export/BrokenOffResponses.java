package io.dlqdesk.operations.export;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.apache.catalina.connector.ClientAbortException;

import java.io.IOException;

/**
 * Breaks off a response that failed after its first bytes were sent. Its status and headers are gone by then, so it can no
 * longer become an error answer, and ending it normally would hand the client a file cut short as if it were whole. The
 * servlet API has no way to say "abort this response"; Tomcat has one: a {@link ClientAbortException} reaching it from
 * the filter chain with the response committed makes it close the connection at once without ending the response
 * (its error report valve, {@code ActionCode.CLOSE_NOW}), write no error page into the body and log nothing above debug.
 * The client sees an incomplete transfer (curl: exit code 18).
 * <p>
 * A filter outside Spring MVC and Spring Security, because both take that exception for a client that went away and
 * finish the response normally. The handler marks the request ({@link #breakOff}) and returns; this throws on its way out.
 */
public final class BrokenOffResponses implements Filter {

    private static final String REASON = BrokenOffResponses.class.getName() + ".reason";

    /** Marks the request: its response, once committed, is broken off instead of ended. The failure is logged already. */
    static void breakOff(ServletRequest request, String why) {
        request.setAttribute(REASON, why);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        chain.doFilter(request, response);
        Object why = request.getAttribute(REASON);
        if (why != null && response.isCommitted()) {
            throw new ClientAbortException(why.toString());
        }
    }
}
