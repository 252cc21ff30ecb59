package io.dlqdesk.domain.edit;

import io.dlqdesk.domain.record.PayloadHash;

import java.util.Objects;

/**
 * The approved edit a replay publishes instead of the source record's value and headers: its number, the SHA-256 of the edited
 * value (correlation of a re-failure compares it) and the SHA-256 of the edited content, by which the publisher finds and
 * checks the stored bytes.
 */
public record AppliedEdit(int number, PayloadHash valueHash, PayloadHash contentHash) {

    public AppliedEdit {
        Objects.requireNonNull(valueHash, "valueHash");
        Objects.requireNonNull(contentHash, "contentHash");
    }
}
