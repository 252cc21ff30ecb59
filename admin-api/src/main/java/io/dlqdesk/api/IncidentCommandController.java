package io.dlqdesk.api;

import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.DiscardIncidentCommand;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.operations.OperatorActions;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.util.function.BiFunction;

/**
 * Operator commands on one incident. The reason is mandatory; the principal recorded on the event
 * is the authenticated caller, never a field of the request.
 */
@RestController
@RequestMapping("/api/v1/incidents/{id}")
public class IncidentCommandController {

    private final CommandGateway commands;
    private final Clock clock = Clock.systemUTC();

    public IncidentCommandController(CommandGateway commands) {
        this.commands = commands;
    }

    /** The body of every command: why. */
    public record Reason(String reason) {
    }

    @PostMapping("/acknowledge")
    public ResponseEntity<Void> acknowledge(@PathVariable String id, @RequestBody(required = false) Reason body, Authentication caller) {
        return send(id, body, caller, AcknowledgeIncidentCommand::new);
    }

    @PostMapping("/resolve")
    public ResponseEntity<Void> resolve(@PathVariable String id, @RequestBody(required = false) Reason body, Authentication caller) {
        return send(id, body, caller, ResolveIncidentCommand::new);
    }

    @PostMapping("/discard")
    public ResponseEntity<Void> discard(@PathVariable String id, @RequestBody(required = false) Reason body, Authentication caller) {
        return send(id, body, caller, DiscardIncidentCommand::new);
    }

    private ResponseEntity<Void> send(String id, Reason body, Authentication caller, BiFunction<IncidentId, OperatorAction, Object> command) {
        IncidentId incidentId = IncidentId.parse(id);
        commands.sendAndWait(command.apply(incidentId, OperatorActions.of(caller, body == null ? null : body.reason(), clock)));
        return ResponseEntity.noContent().build();
    }
}
