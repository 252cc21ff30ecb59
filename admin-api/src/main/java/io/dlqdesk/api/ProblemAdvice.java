package io.dlqdesk.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.dlqdesk.domain.IncidentCommandRefusedException;
import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.operations.export.ExportRefusedException;
import io.dlqdesk.operations.replay.SelectionRefusedException;
import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.parked.ParkedEventNotFoundException;
import io.dlqdesk.rebuild.RebuildNotFoundException;
import io.dlqdesk.rebuild.RebuildRefusedException;
import io.dlqdesk.replay.request.SourceUnavailableException;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import java.net.URI;

/** Every API error as application/problem+json with a stable type and a detail that says what was wrong. */
@RestControllerAdvice(annotations = RestController.class) // the console's pages answer their errors as pages
@Order(Ordered.HIGHEST_PRECEDENCE) // before Spring Boot's generic problem-details handler
public class ProblemAdvice {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    static final URI INVALID_INPUT = URI.create("urn:dlqdesk:problem:invalid-input");
    static final URI NOT_FOUND = URI.create("urn:dlqdesk:problem:not-found");
    static final URI CONFLICT = URI.create("urn:dlqdesk:problem:conflict");
    static final URI REPLAY_REFUSED = URI.create("urn:dlqdesk:problem:replay-refused");
    static final URI SOURCE_UNAVAILABLE = URI.create("urn:dlqdesk:problem:source-unavailable");
    static final URI EMPTY_SELECTION = URI.create("urn:dlqdesk:problem:empty-selection");
    static final URI DATABASE_UNAVAILABLE = URI.create("urn:dlqdesk:problem:database-unavailable");
    static final URI EXPORT_TOO_LARGE = URI.create("urn:dlqdesk:problem:export-too-large");
    static final URI TOO_MANY_REQUESTS = URI.create("urn:dlqdesk:problem:too-many-requests");

    /** Only the desk's own rules make a 400: any other illegal argument is a fault of ours ({@link UnexpectedFailureAdvice}). */
    @ExceptionHandler(InvalidValueException.class)
    ProblemDetail invalidInput(InvalidValueException e) {
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

    @ExceptionHandler(AggregateNotFoundException.class)
    ProblemDetail unknownIncident(AggregateNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, NOT_FOUND, "no incident " + e.getAggregateIdentifier());
    }

    /** The incident's state does not allow the command; {@code code} is the domain's stable reason. */
    @ExceptionHandler(IncidentCommandRefusedException.class)
    ProblemDetail refused(IncidentCommandRefusedException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, CONFLICT, e.getMessage());
        problem.setProperty("code", e.code().name());
        return problem;
    }

    /** The job's state does not allow the command (pause a job that is not running, resume one not paused, cancel an ended one). */
    @ExceptionHandler(ReplayJobCommandRefusedException.class)
    ProblemDetail jobRefused(ReplayJobCommandRefusedException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, CONFLICT, e.getMessage());
        problem.setProperty("code", e.code().name());
        return problem;
    }

    /**
     * A replay job's selection that cannot run: empty (422), too large or naming unknown incidents (400, listed), or holding
     * incidents a job with work left selected (409, listed with those jobs: a retried request must not replay them again).
     */
    @ExceptionHandler(SelectionRefusedException.class)
    ProblemDetail selectionRefused(SelectionRefusedException e) {
        if (e.reason() == SelectionRefusedException.Reason.EMPTY) {
            return problem(HttpStatus.UNPROCESSABLE_ENTITY, EMPTY_SELECTION, e.getMessage());
        }
        if (e.reason() == SelectionRefusedException.Reason.IN_ACTIVE_JOB) {
            ProblemDetail problem = problem(HttpStatus.CONFLICT, CONFLICT, e.getMessage());
            problem.setProperty("code", "SELECTION_IN_ACTIVE_JOB");
            problem.setProperty("activeJobs", e.activeJobs());
            problem.setProperty("incidentIds", e.incidentIds());
            return problem;
        }
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, e.getMessage());
        if (!e.incidentIds().isEmpty()) {
            problem.setProperty("unknownIncidentIds", e.incidentIds());
        }
        return problem;
    }

    /** Every failed replay condition, by its stable code; the refusal is recorded on the incident too. */
    @ExceptionHandler(ReplayRefusedException.class)
    ProblemDetail replayRefused(ReplayRefusedException e) {
        ProblemDetail problem = problem(HttpStatus.UNPROCESSABLE_ENTITY, REPLAY_REFUSED, e.getMessage());
        problem.setProperty("refusals", e.refusals().stream().map(Enum::name).toList());
        if (e.keyFreshness() != null) { // what the stale-key check found: the newer offset, or why it could not tell
            problem.setProperty("keyFreshness", e.keyFreshness());
        }
        return problem;
    }

    /** The broker could not be asked for the source record: nothing was decided, the caller may retry. */
    @ExceptionHandler(SourceUnavailableException.class)
    ProblemDetail sourceUnavailable(SourceUnavailableException e) {
        return problem(HttpStatus.SERVICE_UNAVAILABLE, SOURCE_UNAVAILABLE, e.getMessage());
    }

    /**
     * No database connection within the pool's timeout, or the connection broke: the request did not take
     * effect unless it had committed, and trying again is safe (commands are refused for a state they
     * already brought about).
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, CannotCreateTransactionException.class})
    ProblemDetail databaseUnavailable(RuntimeException e) {
        return problem(HttpStatus.SERVICE_UNAVAILABLE, DATABASE_UNAVAILABLE, "the database could not be reached in time; try again");
    }

    /** Another instance changed the incident at the same moment: retrying reads the new state. */
    @ExceptionHandler(ConcurrencyException.class)
    ProblemDetail concurrentChange(ConcurrencyException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, CONFLICT, "the incident was changed concurrently; retry");
        problem.setProperty("code", "CONCURRENT_CHANGE");
        return problem;
    }

    /** Also a duplicated key (spring.jackson.parser.strict-duplicate-detection): which value was meant is unknowable. */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadableBody(HttpMessageNotReadableException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof RequestLimits.TooLarge tooLarge) {
            return tooLarge(tooLarge);
        }
        if (cause instanceof StreamConstraintsException beyond) {
            // Jackson's text names its own API; ours names the limit
            return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, "the request body is beyond a limit of this API: "
                    + beyond.getOriginalMessage().replaceAll("\\s*\\(from `[^`]*`\\)", "").replaceAll(", from `[^`]*`", ""));
        }
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, "the request body has a field this request does not take: '"
                    + LoginThrottle.printable(unknown.getPropertyName()) + "' (it takes " + unknown.getKnownPropertyIds() + ")");
        }
        boolean duplicate = cause instanceof JsonParseException && String.valueOf(cause.getMessage()).startsWith("Duplicate field");
        return problem(HttpStatus.BAD_REQUEST, INVALID_INPUT, duplicate ? "the request body names a field twice"
                : "the request body is not the expected JSON");
    }

    /** A body without a Content-Length that went on past its limit. */
    @ExceptionHandler(RequestLimits.TooLarge.class)
    ProblemDetail tooLarge(RequestLimits.TooLarge e) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, RequestLimits.TOO_LARGE, e.getMessage());
    }

    /**
     * An export not started: more incidents than an export holds (422, with both numbers), or as many exports running as
     * may (429 with {@code Retry-After}).
     */
    @ExceptionHandler(ExportRefusedException.class)
    ResponseEntity<ProblemDetail> exportRefused(ExportRefusedException e) {
        if (e.reason() == ExportRefusedException.Reason.BUSY) {
            return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(ExportRefusedException.RETRY_AFTER.toSeconds()))
                    .body(problem(HttpStatus.TOO_MANY_REQUESTS, TOO_MANY_REQUESTS, e.getMessage()));
        }
        ProblemDetail problem = problem(HttpStatus.UNPROCESSABLE_ENTITY, EXPORT_TOO_LARGE, e.getMessage());
        problem.setProperty("rows", e.rows());
        problem.setProperty("maxRows", e.maxRows());
        return ResponseEntity.unprocessableEntity().body(problem);
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(RebuildNotFoundException.class)
    ProblemDetail noRebuild(RebuildNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(RebuildRefusedException.class)
    ProblemDetail rebuildRefused(RebuildRefusedException e) {
        return problem(HttpStatus.CONFLICT, CONFLICT, e.getMessage());
    }

    @ExceptionHandler(ParkedEventNotFoundException.class)
    ProblemDetail noParkedEvent(ParkedEventNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, NOT_FOUND, e.getMessage());
    }

    /**
     * Every refusal this advice answers is expected (bad input, unknown id, a state that does not allow the
     * command): one line at INFO, never a stack trace, so a caller cannot flood the log.
     */
    private static ProblemDetail problem(HttpStatus status, URI type, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        if (log.isInfoEnabled()) {
            log.info("refused {}: {} {}", status.value(), type, oneLine(detail));
        }
        return problem;
    }

    private static String oneLine(String detail) {
        String line = detail == null ? "" : detail.replaceAll("[\\r\\n\\t]+", " ");
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
