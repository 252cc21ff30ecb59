package io.dlqdesk.api;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import java.net.URI;

/** Every API error as application/problem+json with a stable type and a detail that says what was wrong. */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE) // before Spring Boot's generic problem-details handler
public class ProblemAdvice {

    static final URI INVALID_INPUT = URI.create("urn:dlqdesk:problem:invalid-input");
    static final URI NOT_FOUND = URI.create("urn:dlqdesk:problem:not-found");

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalidInput(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, e.getMessage());
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail invalidParameter(MethodArgumentTypeMismatchException e) {
        return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, "parameter '" + e.getName() + "' cannot be '" + e.getValue() + "'");
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ProblemDetail missingParameter(MissingServletRequestParameterException e) {
        return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, e.getMessage());
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, NOT_FOUND, e.getMessage());
    }

    private static ProblemDetail problem(HttpStatus status, URI type, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        return problem;
    }
}
