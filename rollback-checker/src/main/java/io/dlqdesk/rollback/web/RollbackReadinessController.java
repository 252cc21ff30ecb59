package io.dlqdesk.rollback.web;

import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.check.RollbackChecker;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/** For a deploy pipeline: 200 READY, 409 NOT_READY, 503 UNKNOWN; the body says why, condition by condition. */
@RestController
public class RollbackReadinessController {

    /** How long a caller waits for checks ahead of it before it is told UNKNOWN. */
    private static final Duration QUEUE_WAIT = Duration.ofMinutes(2);

    private final RollbackChecker checker;
    // one check at a time: a burst of pipeline calls must not take the connection pool from ingest and replay
    private final ReentrantLock oneAtATime = new ReentrantLock(true);

    RollbackReadinessController(RollbackChecker checker) {
        this.checker = checker;
    }

    @GetMapping(path = "/api/v1/rollback-readiness", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ReadinessReport> readiness() throws InterruptedException {
        ReadinessReport report;
        if (oneAtATime.tryLock(QUEUE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            try {
                report = checker.check();
            } finally {
                oneAtATime.unlock();
            }
        } else {
            report = ReadinessReport.couldNotCheck(Instant.now(), "other checks kept this one waiting for " + QUEUE_WAIT);
        }
        HttpStatus status = switch (report.verdict()) {
            case READY -> HttpStatus.OK;
            case NOT_READY -> HttpStatus.CONFLICT;
            case UNKNOWN -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        return ResponseEntity.status(status).cacheControl(CacheControl.noStore()).body(report);
    }
}
