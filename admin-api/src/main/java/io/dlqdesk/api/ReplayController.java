package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.WaiveReplayConsumptionCommand;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.operations.replay.IncidentReplays;
import io.dlqdesk.replay.request.ReplaySwitch;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;

/**
 * Replay commands: replay an incident's original record (operator), end an attempt whose outbox
 * row is gone (admin), and the runtime replay switch (read by anyone who reads, set by an admin).
 */
@RestController
public class ReplayController {

    private final IncidentReplays replays;
    private final ReplaySwitch replaySwitch;
    private final CommandGateway commands;
    private final Clock clock = Clock.systemUTC();

    public ReplayController(IncidentReplays replays, ReplaySwitch replaySwitch, CommandGateway commands) {
        this.replays = replays;
        this.replaySwitch = replaySwitch;
        this.commands = commands;
    }

    /** The accepted attempt; its publish status is REQUESTED until the outbox poller decides it. */
    public record ReplayAccepted(String incidentId, int attempt) {
    }

    /**
     * The body of a replay request: why, whether to replay over a STALE_KEY (or a stale-key check that could not tell), and
     * the approved edit to publish in place of the record's value and headers (absent: the record as it is).
     */
    public record ReplayRequest(String reason, Boolean overrideStaleKey, Integer edit) {
    }

    /** The body of a switch change. */
    public record SwitchChange(Boolean enabled, String reason) {
    }

    /** 202 with the attempt, or 422 listing every failed replay condition (also recorded on the incident). */
    @PostMapping("/api/v1/incidents/{id}/replay")
    public ResponseEntity<ReplayAccepted> replay(@PathVariable String id, @RequestBody(required = false) ReplayRequest body,
                                                 Authentication caller) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, body == null ? null : body.reason());
        ReplayOutcome outcome = replays.request(incidentId, action, body != null && Boolean.TRUE.equals(body.overrideStaleKey()),
                body == null ? null : body.edit());
        if (outcome.attempt() == null) {
            throw new ReplayRefusedException(incidentId, outcome);
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new ReplayAccepted(incidentId.value(), outcome.attempt()));
    }

    /** Allowed only when the attempt's outbox row is really gone; a row that exists gets its result the normal way. */
    @PostMapping("/api/v1/incidents/{id}/attempts/{attempt}/publish-unknown")
    public ResponseEntity<Void> markPublishUnknown(@PathVariable String id, @PathVariable int attempt,
                                                   @RequestBody(required = false) IncidentCommandController.Reason body, Authentication caller) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, body == null ? null : body.reason());
        replays.markPublishUnknown(incidentId, attempt, action);
        return ResponseEntity.noContent().build();
    }

    /**
     * The rollback check stops waiting for this decided attempt's replay to be consumed (its target group was retired, say):
     * it has no horizon, so without a waiver a replay nobody consumes holds it NOT_READY for ever. Shown in its answer.
     */
    @PostMapping("/api/v1/incidents/{id}/attempts/{attempt}/waive-consumption")
    public ResponseEntity<Void> waiveConsumption(@PathVariable String id, @PathVariable int attempt,
                                                 @RequestBody(required = false) IncidentCommandController.Reason body, Authentication caller) {
        IncidentId incidentId = IncidentId.parse(id);
        commands.sendAndWait(new WaiveReplayConsumptionCommand(incidentId, attempt, action(caller, body == null ? null : body.reason())));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/api/v1/replay-switch")
    public ReplaySwitch.State replaySwitch() {
        return replaySwitch.state();
    }

    /** Every change is recorded with who and why; turning it off stops requests and publishing on every instance. */
    @PutMapping("/api/v1/replay-switch")
    public ReplaySwitch.State setReplaySwitch(@RequestBody(required = false) SwitchChange body, Authentication caller) {
        if (body == null || body.enabled() == null) {
            throw new InvalidValueException("'enabled' (true or false) is required");
        }
        return replaySwitch.set(body.enabled(), action(caller, body.reason()));
    }

    private OperatorAction action(Authentication caller, String reason) {
        return OperatorActions.of(caller, reason, clock);
    }
}
