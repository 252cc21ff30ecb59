package io.dlqdesk.retention;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The effective retention of every source topic, with where each value comes from and its flags. */
@RestController
public class RetentionController {

    private final RetentionGuard guard;

    public RetentionController(RetentionGuard guard) {
        this.guard = guard;
    }

    @GetMapping("/api/v1/topics/retention")
    public RetentionGuard.RetentionReport retention() {
        return guard.report();
    }
}
