package io.dlqdesk.consumer;

import java.util.Objects;
import java.util.Set;

/**
 * The desks (their {@code dlqdesk.ledger-name}, sent as {@value ReplayHeaderNames#OWNER}) whose
 * replays for other groups a consumer skips; {@link #any()} trusts every owner. The owner is inside the
 * replay's signature, so this narrows which of the desks sharing a key a consumer defers to (e.g. only
 * production's); it never makes an unsigned replay skipped.
 */
public final class TrustedOwners {

    private static final TrustedOwners ANY = new TrustedOwners(Set.of());

    private final Set<String> names;

    private TrustedOwners(Set<String> names) {
        this.names = names;
    }

    public static TrustedOwners any() {
        return ANY;
    }

    public static TrustedOwners of(String... names) {
        return of(Set.of(names));
    }

    /** Empty trusts every owner. */
    public static TrustedOwners of(Set<String> names) {
        Objects.requireNonNull(names, "names");
        if (names.stream().anyMatch(name -> name == null || name.isBlank())) {
            throw new IllegalArgumentException("a trusted owner must not be blank: " + names);
        }
        return names.isEmpty() ? ANY : new TrustedOwners(Set.copyOf(names));
    }

    /** @param owner the decoded owner header, null when absent or undecodable */
    public boolean trusts(String owner) {
        // an immutable Set's contains(null) throws
        return names.isEmpty() || (owner != null && names.contains(owner));
    }

    @Override
    public String toString() {
        return names.isEmpty() ? "any" : String.join(",", names.stream().sorted().toList());
    }
}
