package io.dlqdesk.domain;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.PublishStatus;

/** One replay attempt as the Incident remembers it; replaced, never mutated. */
record Attempt(int number, FailureKey claimedFailure, String targetGroup, PayloadHash valueHash,
               PublishStatus status, PublishResult result, boolean consumptionWaived) {

    Attempt(int number, FailureKey claimedFailure, String targetGroup, PayloadHash valueHash, PublishStatus status, PublishResult result) {
        this(number, claimedFailure, targetGroup, valueHash, status, result, false);
    }

    Attempt decided(PublishStatus newStatus, PublishResult newResult) {
        return new Attempt(number, claimedFailure, targetGroup, valueHash, newStatus, newResult, consumptionWaived);
    }

    Attempt waived() {
        return new Attempt(number, claimedFailure, targetGroup, valueHash, status, result, true);
    }
}
