package io.dlqdesk.operations.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import java.io.IOException;
import java.net.URI;

/** RFC 7807 bodies for what never reaches a controller (authentication and access). */
public final class ProblemResponses {

    public static final URI UNAUTHENTICATED = URI.create("urn:dlqdesk:problem:unauthenticated");
    public static final URI FORBIDDEN = URI.create("urn:dlqdesk:problem:forbidden");
    public static final URI INVALID_INPUT = URI.create("urn:dlqdesk:problem:invalid-input");

    private ProblemResponses() {
    }

    public static void write(HttpServletResponse response, ObjectMapper json, HttpStatus status, URI type, String detail) throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }
}
