package io.dlqdesk.api;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.operations.security.ProblemResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Bounds on what an API request body may cost before and while it is parsed: its bytes are checked against its
 * {@code Content-Length} before a byte is read (and counted as read when it has none), and the JSON reader of the API
 * stops at a bounded number of tokens and nesting levels and refuses a field no command has. Answers are problems:
 * 413 for bytes, 400 for the rest.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RequestLimitProperties.class)
public class RequestLimits implements WebMvcConfigurer {

    static final URI TOO_LARGE = URI.create("urn:dlqdesk:problem:too-large");
    /** Our bodies nest three levels at most (a job's filter); Jackson's default allows 1,000. */
    static final int MAX_NESTING = 16;
    /** An edit's proposal: {@code POST /api/v1/incidents/{id}/edits} (the firewall has refused encoded slashes and dots by now). */
    private static final Pattern EDIT_PROPOSAL = Pattern.compile("/api/v1/incidents/[^/]+/edits");
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** A body that went on past its limit while it was read (it had no Content-Length, or a false one). */
    static final class TooLarge extends IOException {
        TooLarge(long limit) {
            super("the request body is larger than " + limit + " bytes");
        }
    }

    private final RequestLimitProperties limits;

    RequestLimits(RequestLimitProperties limits) {
        this.limits = limits;
    }

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> requestBodyLimit(ObjectMapper json) {
        // after Spring Security's filters (default order): an unauthenticated caller is told so first
        return new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected boolean shouldNotFilter(HttpServletRequest request) {
                // the servlet path is decoded and normalised as the controllers see it: /%61pi/... is /api/... here too
                return !request.getServletPath().startsWith("/api/") || !BODY_METHODS.contains(request.getMethod());
            }

            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                long limit = limitOf(request);
                if (request.getContentLengthLong() > limit) {
                    ProblemResponses.write(response, json, HttpStatus.PAYLOAD_TOO_LARGE, TOO_LARGE,
                            "the request body has " + request.getContentLengthLong() + " bytes; at most " + limit + " are read here");
                    return;
                }
                chain.doFilter(new Bounded(request, limit), response);
            }
        });
    }

    private long limitOf(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod())) {
            return limits.maxBodySize().toBytes();
        }
        String path = request.getServletPath();
        if (path.equals("/api/v1/replay-jobs")) {
            return limits.maxReplayJobBodySize().toBytes();
        }
        return EDIT_PROPOSAL.matcher(path).matches() ? limits.maxEditBodySize().toBytes() : limits.maxBodySize().toBytes();
    }

    /** The API's JSON reader: bounded tokens and depth, no unknown field. Responses are written as before. */
    @Override
    public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
        for (HttpMessageConverter<?> converter : converters) {
            if (converter instanceof MappingJackson2HttpMessageConverter jackson) {
                ObjectMapper bounded = jackson.getObjectMapper().copy()
                        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
                bounded.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING)
                        .maxTokenCount(limits.maxBodyTokens())
                        .maxDocumentLength(Math.max(limits.maxReplayJobBodySize().toBytes(), limits.maxEditBodySize().toBytes()))
                        .build());
                jackson.setObjectMapper(bounded);
            }
        }
    }

    /** Counts what is read and stops past the limit. */
    private static final class Bounded extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        Bounded(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream body = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int next = body.read();
                        if (next >= 0) {
                            count(1);
                        }
                        return next;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = body.read(buffer, offset, length);
                        if (n > 0) {
                            count(n);
                        }
                        return n;
                    }

                    private void count(int n) throws TooLarge {
                        read += n;
                        if (read > limit) {
                            throw new TooLarge(limit);
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return body.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return body.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        body.setReadListener(listener);
                    }
                };
            }
            return stream;
        }

        @Override
        public java.io.BufferedReader getReader() {
            throw new IllegalStateException("the API reads bodies as bytes");
        }
    }
}
