package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.operations.UnexpectedFailure;
import io.dlqdesk.operations.export.ExportRefusedException;
import io.dlqdesk.replay.request.SourceUnavailableException;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The console's errors as pages with the status the API would answer (400, 403, 404, 503) and what was wrong in words;
 * the API's problem+json advice answers only REST controllers.
 */
@ControllerAdvice(basePackageClasses = ConsoleAdvice.class) // the console's pages, all in this package
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ConsoleAdvice {

    private static final Logger log = LoggerFactory.getLogger(ConsoleAdvice.class);

    /** Only the desk's own rules make a 400: any other illegal argument is a fault of ours ({@link #other}). */
    @ExceptionHandler(InvalidValueException.class)
    ModelAndView invalid(InvalidValueException e) {
        return page(HttpStatus.BAD_REQUEST, "Not a valid request", e.getMessage());
    }

    @ExceptionHandler({NotFoundException.class, AggregateNotFoundException.class})
    ModelAndView notFound(RuntimeException e) {
        return page(HttpStatus.NOT_FOUND, "Not found", e.getMessage());
    }

    @ExceptionHandler(SourceUnavailableException.class)
    ModelAndView sourceUnavailable(SourceUnavailableException e) {
        return page(HttpStatus.SERVICE_UNAVAILABLE, "The broker could not be asked", e.getMessage() + " Nothing was recorded; try again.");
    }

    @ExceptionHandler({DataAccessResourceFailureException.class, CannotCreateTransactionException.class})
    ModelAndView databaseUnavailable(RuntimeException e) {
        return page(HttpStatus.SERVICE_UNAVAILABLE, "The database could not be reached", "Try again in a moment.");
    }

    /** An export not started: too many incidents for one (422) or too many exports at once (429, with Retry-After). */
    @ExceptionHandler(ExportRefusedException.class)
    ModelAndView exportRefused(ExportRefusedException e, HttpServletResponse response) {
        if (e.reason() == ExportRefusedException.Reason.BUSY) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(ExportRefusedException.RETRY_AFTER.toSeconds()));
            return page(HttpStatus.TOO_MANY_REQUESTS, "Too many exports at once", e.getMessage());
        }
        return page(HttpStatus.UNPROCESSABLE_ENTITY, "Too many incidents for one export", e.getMessage());
    }

    /** A query's failure arrives wrapped by the query gateway's future. */
    @ExceptionHandler(CompletionException.class)
    ModelAndView completion(CompletionException e) throws Throwable {
        Throwable cause = e.getCause();
        if (cause instanceof InvalidValueException invalid) {
            return invalid(invalid);
        }
        if (cause instanceof NotFoundException missing) {
            return notFound(missing);
        }
        if (cause instanceof DataAccessResourceFailureException || cause instanceof CannotCreateTransactionException) {
            return databaseUnavailable((RuntimeException) cause);
        }
        throw cause == null ? e : cause;
    }

    @ExceptionHandler(TypeMismatchException.class)
    ModelAndView typeMismatch(TypeMismatchException e) {
        return page(HttpStatus.BAD_REQUEST, "Not a valid request", "'" + e.getPropertyName() + "' cannot be '" + e.getValue() + "'");
    }

    /** Spring's own (a missing parameter, a wrong method, no such page) with their status; anything else is a 500, logged. */
    @ExceptionHandler(Exception.class)
    ModelAndView other(Exception e) {
        if (e instanceof ErrorResponse error) {
            HttpStatus status = HttpStatus.valueOf(error.getStatusCode().value());
            return page(status, status.getReasonPhrase(), error.getBody().getDetail());
        }
        String id = UnexpectedFailure.logged(log, "console page", e);
        return page(HttpStatus.INTERNAL_SERVER_ERROR, "Something went wrong", UnexpectedFailure.detail(id));
    }

    static ModelAndView page(HttpStatus status, String title, String detail) {
        log.info("console refused {}: {}", status.value(), detail == null ? "" : detail.replaceAll("[\\r\\n\\t]+", " "));
        ModelAndView page = new ModelAndView("console/error", Map.of("status", status.value(), "title", title,
                "detail", detail == null ? "" : detail));
        page.setStatus(status);
        return page;
    }
}
