package io.dlqdesk.api;

import java.util.List;

/** A replay job's selection cannot be used: nothing selected, too much, or incident ids that do not exist. */
class SelectionRefusedException extends RuntimeException {

    enum Reason { EMPTY, TOO_LARGE, UNKNOWN_INCIDENTS }

    private final Reason reason;
    private final List<String> unknownIncidentIds;

    SelectionRefusedException(Reason reason, String detail, List<String> unknownIncidentIds) {
        super(detail);
        this.reason = reason;
        this.unknownIncidentIds = List.copyOf(unknownIncidentIds);
    }

    Reason reason() {
        return reason;
    }

    List<String> unknownIncidentIds() {
        return unknownIncidentIds;
    }
}
