package io.dlqdesk.operations.export;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * {@code dlqdesk.export.*}: the bounds of an export of incidents (the API's and the console's).
 *
 * @param maxRows       the most incidents one export holds; an export that would hold more is refused before it starts,
 *                      naming the count, never cut short. 1,000,000: less than a spreadsheet's 1,048,576 rows with the
 *                      header, and about 400 MB of CSV
 * @param timeout       the longest an export may take, its count and its read of the rows included (each statement's query
 *                      timeout, and a check at every row); one still running then is broken off, which its client sees as
 *                      an incomplete transfer
 * @param maxConcurrent exports running at once on an instance; each holds a database connection from the pool while it
 *                      runs, so more would starve ingest and the read models. Beyond: a 429 with {@code Retry-After}
 */
@Validated
@ConfigurationProperties(prefix = "dlqdesk.export", ignoreUnknownFields = false)
public record ExportProperties(@Min(1) @DefaultValue("1000000") long maxRows,
                               @NotNull @DurationUnit(ChronoUnit.SECONDS) @DefaultValue("10m") Duration timeout,
                               @Min(1) @Max(50) @DefaultValue("2") int maxConcurrent) {

    @AssertTrue(message = "dlqdesk.export.timeout must be at least 1s")
    public boolean isTimeoutAtLeastASecond() {
        return timeout == null || timeout.compareTo(Duration.ofSeconds(1)) >= 0;
    }
}
