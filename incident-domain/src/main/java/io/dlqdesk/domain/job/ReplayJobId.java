package io.dlqdesk.domain.job;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A replay job's id, supplied by the caller (generated outside the domain, so tests stay deterministic). At most 36
 * characters, as an incident id: the audit trail keeps job events under the job's id.
 */
public record ReplayJobId(String value) {

    private static final Pattern FORM = Pattern.compile("[A-Za-z0-9._-]{1,36}");

    public ReplayJobId {
        Objects.requireNonNull(value, "value");
        if (!FORM.matcher(value).matches()) {
            throw new InvalidValueException("a replay job id is 1..36 of A-Z a-z 0-9 . _ -, was '"
                    + (value.length() > 80 ? value.substring(0, 80) + "…" : value) + "'");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
