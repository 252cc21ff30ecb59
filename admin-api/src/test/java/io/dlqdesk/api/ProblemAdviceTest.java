package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.operations.NotFoundException;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Which failures the API answers as the caller's (400), which as the moment's (503) and which as its own (500 with an id),
 * resolved as Spring resolves them: advice by advice in their order, each by the exception or, failing that, its causes.
 */
class ProblemAdviceTest {

    private final ExceptionHandlerMethodResolver known = new ExceptionHandlerMethodResolver(ProblemAdvice.class);
    private final ExceptionHandlerMethodResolver last = new ExceptionHandlerMethodResolver(UnexpectedFailureAdvice.class);

    @Test
    void theDesksOwnRulesAreTheCallersMistakes() {
        InvalidValueException invalid = catchThrowableOfType(InvalidValueException.class, () -> IncidentId.parse("not an id"));
        assertThat(invalid).as("an id that is not one breaks the domain's rule").isNotNull();
        assertThat(known.resolveMethodByThrowable(invalid).getName()).isEqualTo("invalidInput");
        ProblemDetail problem = new ProblemAdvice().invalidInput(invalid);
        assertThat(problem.getStatus()).isEqualTo(400);
        assertThat(problem.getDetail()).isEqualTo(invalid.getMessage());
    }

    /** A query's failure arrives wrapped by the query gateway's future: the wrapper must not hide what it says. */
    @Test
    void aKnownFailureWrappedByAQuerysFutureIsStillAnsweredForWhatItIs() {
        assertThat(known.resolveMethodByThrowable(new CompletionException(new DataAccessResourceFailureException("no connection")))
                .getName()).isEqualTo("databaseUnavailable");
        assertThat(known.resolveMethodByThrowable(new CompletionException(new NotFoundException("no incident"))).getName())
                .isEqualTo("notFound");
    }

    @Test
    void anyOtherIllegalArgumentIsAFaultOfOursAnsweredWithAnIdAndNotItsMessage() {
        IllegalArgumentException bug = new IllegalArgumentException("Illegal group reference in com.example.Internal");
        assertThat(known.resolveMethodByThrowable(bug)).as("the known failures' advice has no answer for it").isNull();
        assertThat(last.resolveMethodByThrowable(bug).getName()).isEqualTo("unexpected");
        ResponseEntity<ProblemDetail> answer = new UnexpectedFailureAdvice().unexpected(bug, request("GET", "/api/v1/incidents"));
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        String id = String.valueOf(answer.getBody().getProperties().get("errorId"));
        assertThat(id).matches("[0-9a-f]{8}");
        assertThat(answer.getBody().getDetail()).contains(id).doesNotContain("Illegal group", "com.example");
        assertThat(answer.getBody().getType()).hasToString("urn:dlqdesk:problem:internal-error");
    }

    @Test
    void springsOwnErrorsReachingTheLastAdviceKeepTheirStatusAndHeaders() {
        HttpRequestMethodNotSupportedException wrongMethod = new HttpRequestMethodNotSupportedException("DELETE", Set.of("GET"));
        ResponseEntity<ProblemDetail> answer = new UnexpectedFailureAdvice().unexpected(wrongMethod, request("DELETE", "/api/v1/incidents"));
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(answer.getHeaders().getAllow()).isNotEmpty();
        assertThat(answer.getBody().getProperties() == null ? Map.of() : answer.getBody().getProperties()).doesNotContainKey("errorId");
    }

    private static HttpServletRequest request(String method, String uri) {
        return (HttpServletRequest) Proxy.newProxyInstance(ProblemAdviceTest.class.getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (proxy, called, arguments) -> switch (called.getName()) {
                    case "getMethod" -> method;
                    case "getRequestURI" -> uri;
                    default -> null;
                });
    }
}
