package io.dlqdesk.api;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code dlqdesk.api.*}: what a request body to the API may hold, checked before it is read and while it is parsed.
 *
 * @param maxBodySize          bytes of a command's body (a reason, a switch change)
 * @param maxReplayJobBodySize bytes of a replay job's body, which may list up to {@code dlqdesk.replay.jobs.max-selection}
 *                             incident ids (about 40 bytes each)
 * @param maxEditBodySize      bytes of an edit's proposal, whose value may be up to 1,000,000 bytes (as JSON text or base64) and
 *                             carry up to 100 headers
 * @param maxBodyTokens        JSON tokens of any body (each name, value, bracket), so a body within its bytes still holds
 *                             a bounded number of fields; a job's id list takes one token per id
 */
@Validated
@ConfigurationProperties("dlqdesk.api")
public record RequestLimitProperties(@NotNull @DefaultValue("16KB") DataSize maxBodySize,
                                     @NotNull @DefaultValue("1MB") DataSize maxReplayJobBodySize,
                                     @NotNull @DefaultValue("3MB") DataSize maxEditBodySize,
                                     @Min(64) @Max(10_000_000) @DefaultValue("25000") int maxBodyTokens) {
}
