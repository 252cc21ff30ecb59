package io.dlqdesk.operations;

import io.dlqdesk.domain.incident.OperatorAction;
import org.springframework.security.core.Authentication;

import java.time.Clock;

/** The action a request records, the same from either front door. */
public final class OperatorActions {

    private OperatorActions() {
    }

    /** The authenticated caller (never a body field), the reason given (missing counts as blank, which is refused), now. */
    public static OperatorAction of(Authentication caller, String reason, Clock clock) {
        return new OperatorAction(caller.getName(), reason == null ? "" : reason, clock.instant());
    }
}
