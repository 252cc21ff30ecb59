package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.rebuild.ReadModelRebuilds;
import io.dlqdesk.rebuild.RebuildNotFoundException;
import io.dlqdesk.rebuild.RebuildView;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Clock;
import java.util.List;

/**
 * Bulk rebuilds of the read models (docs/operations.md, "Rebuilding the read models"): an admin starts one for a processor
 * with a reason, follows its progress, and may cancel it before its swap; starting and cancelling are in the audit trail.
 */
@RestController
@RequestMapping("/api/v1/read-model-rebuilds")
public class RebuildController {

    /** Which processor's read models to rebuild, and why. */
    public record RebuildRequest(String processor, String reason) {
    }

    private static final int MAX_LISTED = 100;

    private final ReadModelRebuilds rebuilds;
    private final Clock clock = Clock.systemUTC();

    public RebuildController(ReadModelRebuilds rebuilds) {
        this.rebuilds = rebuilds;
    }

    @PostMapping
    public ResponseEntity<RebuildView> start(@RequestBody(required = false) RebuildRequest body, Authentication caller) {
        RebuildView started = rebuilds.start(body == null ? null : body.processor(), // a missing one is refused there, naming them
                OperatorActions.of(caller, body == null ? null : body.reason(), clock));
        return ResponseEntity.accepted().location(URI.create("/api/v1/read-model-rebuilds/" + started.id())).body(started);
    }

    /** The newest first, at most {@value #MAX_LISTED}. */
    @GetMapping
    public List<RebuildView> recent(@RequestParam(defaultValue = "20") int limit) {
        if (limit < 1 || limit > MAX_LISTED) {
            throw new InvalidValueException("'limit' is 1 to " + MAX_LISTED + ", was " + limit);
        }
        return rebuilds.recent(limit);
    }

    @GetMapping("/{id}")
    public RebuildView find(@PathVariable String id) {
        return rebuilds.find(id).orElseThrow(() -> new RebuildNotFoundException(id));
    }

    @PostMapping("/{id}/cancel")
    public RebuildView cancel(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                              Authentication caller) {
        return rebuilds.cancel(id, OperatorActions.of(caller, body == null ? null : body.reason(), clock));
    }
}
