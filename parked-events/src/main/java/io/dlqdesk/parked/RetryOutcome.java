package io.dlqdesk.parked;

/**
 * What a retry did: {@code applied} sequences were handled to their end and left the queue; {@code stillParked} failed
 * again (or were being retried elsewhere) and stay, one attempt more.
 */
public record RetryOutcome(String processingGroup, String sequence, int applied, int stillParked) {
}
