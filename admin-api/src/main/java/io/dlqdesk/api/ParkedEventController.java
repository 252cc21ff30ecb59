package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.domain.PageBounds;
import io.dlqdesk.parked.ParkedEventPage;
import io.dlqdesk.parked.ParkedEvents;
import io.dlqdesk.parked.RetryOutcome;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;

/**
 * Events a processor could not handle and parked (docs/operations.md, "Parked events"): viewers list them, an admin retries
 * one sequence, every sequence of a processing group, or evicts one event, always with a reason; each action is an event
 * in the audit trail.
 */
@RestController
public class ParkedEventController {

    /** The processing group to retry, and why. */
    public record RetryAll(String processingGroup, String reason) {
    }

    private final ParkedEvents parked;
    private final Clock clock = Clock.systemUTC();

    public ParkedEventController(ParkedEvents parked) {
        this.parked = parked;
    }

    @GetMapping("/api/v1/parked-events")
    public ParkedEventPage list(@RequestParam(name = "processingGroup", required = false) String processingGroup,
                                @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        PageBounds.require(page, size);
        return parked.list(processingGroup, page, size);
    }

    /** The parked event's sequence, from its head, through its group's handlers again. */
    @PostMapping("/api/v1/parked-events/{id}/retry")
    public RetryOutcome retry(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                              Authentication caller) {
        return parked.retry(id, OperatorActions.of(caller, body == null ? null : body.reason(), clock));
    }

    @PostMapping("/api/v1/parked-events/retry")
    public RetryOutcome retryAll(@RequestBody(required = false) RetryAll body, Authentication caller) {
        if (body == null || body.processingGroup() == null) {
            throw new InvalidValueException("'processingGroup' is required (one of " + parked.groups() + ")");
        }
        return parked.retryAll(body.processingGroup(), OperatorActions.of(caller, body.reason(), clock));
    }

    /** Its group never applies it; what waits behind it stays parked. */
    @PostMapping("/api/v1/parked-events/{id}/evict")
    public ParkedEvent evict(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                             Authentication caller) {
        return parked.evict(id, OperatorActions.of(caller, body == null ? null : body.reason(), clock));
    }
}
