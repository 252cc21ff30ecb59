package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Which failures the API answers as the caller's (400) and which as its own (500 with an id), as Spring resolves them. */
class ProblemAdviceTest {

    private final ProblemAdvice advice = new ProblemAdvice();
    private final ExceptionHandlerMethodResolver handlers = new ExceptionHandlerMethodResolver(ProblemAdvice.class);

    @Test
    void theDesksOwnRulesAreTheCallersMistakes() {
        InvalidValueException invalid = catchThrowableOfType(InvalidValueException.class, () -> IncidentId.parse("not an id"));
        assertThat(invalid).as("an id that is not one breaks the domain's rule").isNotNull();
        assertThat(handlers.resolveMethod(invalid).getName()).isEqualTo("invalidInput");
        ProblemDetail problem = advice.invalidInput(invalid);
        assertThat(problem.getStatus()).isEqualTo(400);
        assertThat(problem.getDetail()).isEqualTo(invalid.getMessage());
    }

    @Test
    void anyOtherIllegalArgumentIsAFaultOfOursAnsweredWithAnIdAndNotItsMessage() {
        IllegalArgumentException bug = new IllegalArgumentException("Illegal group reference in com.example.Internal");
        assertThat(handlers.resolveMethod(bug).getName()).isEqualTo("unexpected");
        ResponseEntity<ProblemDetail> answer = advice.unexpected(bug, request("GET", "/api/v1/incidents"));
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        String id = String.valueOf(answer.getBody().getProperties().get("errorId"));
        assertThat(id).matches("[0-9a-f]{8}");
        assertThat(answer.getBody().getDetail()).contains(id).doesNotContain("Illegal group", "com.example");
        assertThat(answer.getBody().getType()).hasToString("urn:dlqdesk:problem:internal-error");
    }

    @Test
    void springsOwnErrorsKeepTheirStatusAndHeaders() throws Exception {
        HttpRequestMethodNotSupportedException wrongMethod = new HttpRequestMethodNotSupportedException("DELETE", Set.of("GET"));
        ResponseEntity<ProblemDetail> answer = advice.unexpected(wrongMethod, request("DELETE", "/api/v1/incidents"));
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
