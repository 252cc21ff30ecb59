package io.dlqdesk.domain.job;

import io.dlqdesk.domain.InvalidValueException;

/**
 * How fast a replay job runs and when it stops itself.
 *
 * @param ratePerSecond    replays requested per second, 1..{@value #MAX_RATE}
 * @param maxInFlight      replays requested and not yet decided (published or failed) at any time, 1..{@value #MAX_IN_FLIGHT}
 * @param canary           pause for an operator's resume after this many incidents were requested or refused; null: no canary
 * @param maxRefailureRate pause when more than this share of the job's published replays came back as correlated
 *                         re-failures, judged from {@value #MIN_PUBLISHED_FOR_RATE} published on; null: never
 */
public record ReplayJobLimits(int ratePerSecond, int maxInFlight, Integer canary, Double maxRefailureRate) {

    public static final int DEFAULT_RATE = 10;
    public static final int MAX_RATE = 500;
    public static final int DEFAULT_MAX_IN_FLIGHT = 50;
    public static final int MAX_IN_FLIGHT = 1000;
    public static final int MIN_PUBLISHED_FOR_RATE = 10;

    public ReplayJobLimits {
        if (ratePerSecond < 1 || ratePerSecond > MAX_RATE) {
            throw new InvalidValueException("ratePerSecond must be 1.." + MAX_RATE + ", was " + ratePerSecond);
        }
        if (maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
            throw new InvalidValueException("maxInFlight must be 1.." + MAX_IN_FLIGHT + ", was " + maxInFlight);
        }
        if (canary != null && canary < 1) {
            throw new InvalidValueException("canary must be at least 1 when given, was " + canary);
        }
        if (maxRefailureRate != null && !(maxRefailureRate > 0 && maxRefailureRate <= 1)) {
            throw new InvalidValueException("maxRefailureRate must be in (0, 1] when given, was " + maxRefailureRate);
        }
    }

    public static ReplayJobLimits defaults() {
        return new ReplayJobLimits(DEFAULT_RATE, DEFAULT_MAX_IN_FLIGHT, null, null);
    }

    /** Whether {@code refailed} of {@code published} replays is more than this job accepts. */
    public boolean refailureRateExceeded(int published, int refailed) {
        return maxRefailureRate != null && published >= MIN_PUBLISHED_FOR_RATE && refailed > maxRefailureRate * published;
    }
}
