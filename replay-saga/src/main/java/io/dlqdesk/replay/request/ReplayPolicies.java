package io.dlqdesk.replay.request;

import io.dlqdesk.domain.replay.ReplayPolicy;

import java.util.regex.Pattern;

/** Which source topics may be replayed to, and how many attempts an incident gets. */
public record ReplayPolicies(Pattern allowedTopics, int maxAttempts) {

    public ReplayPolicy forTopic(String topic) {
        return new ReplayPolicy(allowedTopics.matcher(topic).matches(), maxAttempts);
    }
}
