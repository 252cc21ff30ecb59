package io.dlqdesk.replay.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** {@code dlqdesk.replay.jobs.*}: bulk replay jobs. Defaults are the shipped ones (listed in docs/configuration.md). */
@Validated
@ConfigurationProperties("dlqdesk.replay.jobs")
public record ReplayJobProperties(
        /* how often the runner claims the next incidents of its jobs; a job's rate is spread over these rounds */
        @NotNull @DefaultValue("50ms") Duration tick,
        /* incidents asked at once (each reads its source record, then asks the incident) */
        @Min(1) @Max(64) @DefaultValue("4") int workers,
        /* incidents one job may select */
        @Min(1) @Max(100_000) @DefaultValue("10000") int maxSelection,
        /* incidents one dry run evaluates (each reads its source record from the broker) */
        @Min(1) @Max(100_000) @DefaultValue("1000") int dryRunMax,
        /* how long the runner keeps the work list of a job that ended (a late re-failure is still counted on it) */
        @NotNull @DefaultValue("7d") Duration keepEnded,
        /* four-eyes: which jobs wait AWAITING_APPROVAL until a second person (role APPROVER) approves them */
        @Valid @NotNull @DefaultValue Approval approval) {

    /**
     * {@code dlqdesk.replay.jobs.approval.*}: when {@code enabled}, a job selecting at least {@code min-incidents} incidents
     * (1: every job) waits AWAITING_APPROVAL until someone with the APPROVER role other than its creator approves it.
     */
    public record Approval(
            @DefaultValue("false") boolean enabled,
            @Min(1) @DefaultValue("1") int minIncidents) {

        /** Whether a job of {@code selected} incidents waits for approval. */
        public boolean requiredFor(int selected) {
            return enabled && selected >= minIncidents;
        }
    }
}
