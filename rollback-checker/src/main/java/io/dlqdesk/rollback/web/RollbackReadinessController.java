package io.dlqdesk.rollback.web;

import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.check.RollbackChecker;
import io.dlqdesk.rollback.check.Verdict;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * For a deploy pipeline: 200 READY, 409 NOT_READY, 503 UNKNOWN; the body says why, condition by condition.
 * Callers share checks ({@link SharedReadinessCheck}) and wait without holding a request thread; when too
 * many already wait, the answer is 429 with {@code Retry-After} at once.
 */
@RestController
@EnableConfigurationProperties(ReadinessEndpointProperties.class)
public class RollbackReadinessController {

    static final URI TOO_MANY_REQUESTS = URI.create("urn:dlqdesk:problem:too-many-requests");

    private final SharedReadinessCheck checks;
    private final Duration maxWait;

    RollbackReadinessController(SharedReadinessCheck checks, ReadinessEndpointProperties properties) {
        this.checks = checks;
        this.maxWait = properties.maxWait();
    }

    /** With the last verdict as a gauge: the {@link Verdict#exitCode()} (0 READY, 1 NOT_READY, 2 UNKNOWN), NaN before the first check. */
    @Bean
    static SharedReadinessCheck sharedReadinessCheck(RollbackChecker checker, ReadinessEndpointProperties properties,
                                                     ObjectProvider<MeterRegistry> meters) {
        SharedReadinessCheck checks = new SharedReadinessCheck(checker::check, properties.maxWaiters(), Clock.systemUTC());
        meters.ifAvailable(registry -> Gauge.builder("dlq.rollback.verdict", checks,
                        shared -> shared.lastReport().map(report -> (double) report.verdict().exitCode()).orElse(Double.NaN))
                .description("the last rollback check's verdict: 0 READY, 1 NOT_READY, 2 UNKNOWN (NaN before the first check)")
                .register(registry));
        return checks;
    }

    @GetMapping(path = "/api/v1/rollback-readiness", produces = MediaType.APPLICATION_JSON_VALUE)
    DeferredResult<ResponseEntity<?>> readiness() {
        DeferredResult<ResponseEntity<?>> answer = new DeferredResult<>(maxWait.toMillis(), () -> retryLater(answerFor(
                ReadinessReport.couldNotCheck(Instant.now(), "no verdict within " + maxWait + "; checks are queued, try again"))));
        Optional<CompletableFuture<ReadinessReport>> verdict = checks.nextVerdict();
        if (verdict.isEmpty()) {
            answer.setResult(busy());
        } else {
            verdict.get().whenComplete((report, error) -> answer.setResult(answerFor(report != null ? report
                    : ReadinessReport.couldNotCheck(Instant.now(), "the check failed: " + error))));
        }
        return answer;
    }

    private static ResponseEntity<?> answerFor(ReadinessReport report) {
        HttpStatus status = switch (report.verdict()) {
            case READY -> HttpStatus.OK;
            case NOT_READY -> HttpStatus.CONFLICT;
            case UNKNOWN -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        return ResponseEntity.status(status).cacheControl(CacheControl.noStore()).body(report);
    }

    private ResponseEntity<?> retryLater(ResponseEntity<?> answer) {
        return ResponseEntity.status(answer.getStatusCode()).cacheControl(CacheControl.noStore())
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds()).body(answer.getBody());
    }

    private ResponseEntity<?> busy() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS,
                "too many callers already wait for the next rollback check; try again after " + retryAfterSeconds() + " s");
        problem.setType(TOO_MANY_REQUESTS);
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).cacheControl(CacheControl.noStore())
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    private String retryAfterSeconds() {
        return String.valueOf(Math.max(1, (checks.retryAfter().toMillis() + 999) / 1000));
    }
}
