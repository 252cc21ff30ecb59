package io.dlqdesk.console.web;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.rollback.check.ConditionResult;
import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.web.SharedReadinessCheck;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.ModelAndView;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Rollback readiness: the page at once, the verdict when the next check ends (the check the endpoint runs, shared with
 * its callers: no request thread waits). Each condition with its explanation and the values it was decided on.
 */
@Controller
public class RollbackPage {

    private static final Duration MAX_WAIT = Duration.ofSeconds(60);

    private final SharedReadinessCheck checks;
    private final ObjectMapper json;

    RollbackPage(SharedReadinessCheck checks, ObjectMapper json) {
        this.checks = checks;
        this.json = json;
    }

    /** A condition as the page shows it: its result and the observed values by name (as the endpoint's JSON names them). */
    public record ShownCondition(ConditionResult result, Map<String, Object> observed) {
    }

    @GetMapping("/console/rollback")
    String page() {
        return "console/rollback";
    }

    /** The next check's verdict; {@code compact}: only the verdict and the conditions not met (the overview's panel). */
    @GetMapping("/console/rollback/verdict")
    DeferredResult<ModelAndView> verdict(@RequestParam(defaultValue = "false") boolean compact) {
        String view = "console/rollback :: " + (compact ? "compact" : "verdict");
        DeferredResult<ModelAndView> answer = new DeferredResult<>(MAX_WAIT.toMillis(), () -> shown(view,
                ReadinessReport.couldNotCheck(Instant.now(), "no verdict within " + MAX_WAIT + "; checks are queued, try again")));
        Optional<CompletableFuture<ReadinessReport>> next = checks.nextVerdict();
        if (next.isEmpty()) {
            answer.setResult(shown(view, ReadinessReport.couldNotCheck(Instant.now(),
                    "too many callers wait for the next check; try again in " + checks.retryAfter().toSeconds() + " s")));
        } else {
            next.get().whenComplete((report, error) -> answer.setResult(shown(view, report != null ? report
                    : ReadinessReport.couldNotCheck(Instant.now(), "the check failed: " + error))));
        }
        return answer;
    }

    private ModelAndView shown(String view, ReadinessReport report) {
        List<ShownCondition> conditions = report.conditions().stream()
                .map(condition -> new ShownCondition(condition, json.convertValue(condition.observed(), new TypeReference<Map<String, Object>>() {
                })))
                .toList();
        return new ModelAndView(view, Map.of("report", report, "conditions", conditions));
    }
}
