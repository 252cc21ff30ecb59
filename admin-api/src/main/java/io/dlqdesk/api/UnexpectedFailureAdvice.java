package io.dlqdesk.api;

import io.dlqdesk.operations.UnexpectedFailure;
import io.dlqdesk.operations.security.LoginThrottle;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.net.URI;

/**
 * What no other advice answers: a fault of ours, a 500 whose detail is only an id that finds the logged stack trace. Last in
 * order, so {@link ProblemAdvice} still answers a failure it knows when it arrives wrapped (a query's, in a
 * CompletionException) and Spring Boot's handler its own errors; one of those reaching here keeps its status and headers.
 */
@RestControllerAdvice(annotations = RestController.class)
@Order(Ordered.LOWEST_PRECEDENCE)
public class UnexpectedFailureAdvice {

    private static final Logger log = LoggerFactory.getLogger(UnexpectedFailureAdvice.class);

    static final URI INTERNAL_ERROR = URI.create("urn:dlqdesk:problem:internal-error");

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        if (e instanceof ErrorResponse error) {
            return ResponseEntity.status(error.getStatusCode()).headers(error.getHeaders()).body(error.getBody());
        }
        String id = UnexpectedFailure.logged(log, request.getMethod() + " " + LoginThrottle.printable(request.getRequestURI()), e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, UnexpectedFailure.detail(id));
        problem.setType(INTERNAL_ERROR);
        problem.setProperty("errorId", id);
        return ResponseEntity.internalServerError().body(problem);
    }
}
