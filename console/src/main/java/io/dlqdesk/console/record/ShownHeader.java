package io.dlqdesk.console.record;

/** One header of a record: its name (as text, however odd) and its value, or that the value is withheld. */
public record ShownHeader(String name, ShownBytes value, boolean redacted) {
}
