package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;
import org.springframework.web.servlet.ModelAndView;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failures a console page shows as the operator's (400) and which as the service's own (500 with an id). */
class ConsoleAdviceTest {

    private final ConsoleAdvice advice = new ConsoleAdvice();
    private final ExceptionHandlerMethodResolver handlers = new ExceptionHandlerMethodResolver(ConsoleAdvice.class);

    @Test
    void theDesksOwnRulesAreTheOperatorsToFix() {
        InvalidValueException invalid = new InvalidValueException("'status' must be one of OPEN, ACKED, RESOLVED, DISCARDED, was 'x'");
        assertThat(handlers.resolveMethod(invalid).getName()).isEqualTo("invalid");
        ModelAndView page = advice.invalid(invalid);
        assertThat(page.getStatus()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(page.getModel().get("detail")).isEqualTo(invalid.getMessage());
    }

    @Test
    void anyOtherIllegalArgumentIsTheServicesOwnShownOnlyByItsId() {
        IllegalArgumentException bug = new IllegalArgumentException("Illegal group reference in com.example.Internal");
        assertThat(handlers.resolveMethod(bug).getName()).isEqualTo("other");
        ModelAndView page = advice.other(bug);
        assertThat(page.getStatus()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(String.valueOf(page.getModel().get("detail"))).containsPattern("error [0-9a-f]{8}").doesNotContain("Illegal group");
    }
}
