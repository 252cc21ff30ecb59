package io.dlqdesk.rollback.web;

import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.check.RollbackChecker;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** For a deploy pipeline: 200 READY, 409 NOT_READY, 503 UNKNOWN; the body says why, condition by condition. */
@RestController
public class RollbackReadinessController {

    private final RollbackChecker checker;

    RollbackReadinessController(RollbackChecker checker) {
        this.checker = checker;
    }

    @GetMapping(path = "/api/v1/rollback-readiness", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ReadinessReport> readiness() {
        ReadinessReport report = checker.check();
        HttpStatus status = switch (report.verdict()) {
            case READY -> HttpStatus.OK;
            case NOT_READY -> HttpStatus.CONFLICT;
            case UNKNOWN -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        return ResponseEntity.status(status).cacheControl(CacheControl.noStore()).body(report);
    }
}
