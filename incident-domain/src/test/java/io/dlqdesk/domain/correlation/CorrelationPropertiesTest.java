package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static io.dlqdesk.domain.correlation.CorrelationCheckTest.EVENT_ID;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.HASH;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.ID;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.KEY;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.LEDGER;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.MATCHING;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.RECORDED;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.TIMESTAMP;
import static io.dlqdesk.domain.correlation.CorrelationCheckTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** Header values, keys and payloads from anywhere: correlation never throws and matches only exact values. */
class CorrelationPropertiesTest {

    /** The exact value, near misses of it, arbitrary text and absence (never a value ingest quarantines: see ReplayHeaders). */
    private static Arbitrary<String> around(String exact) {
        return Arbitraries.oneOf(
                        Arbitraries.just(exact),
                        Arbitraries.of(exact + " ", " " + exact, exact.toUpperCase(Locale.ROOT), exact + "\uFFFD",
                                exact.substring(0, exact.length() - 1), "0" + exact, exact + exact),
                        Arbitraries.strings().ofMaxLength(40).filter(text -> ReplayHeaders.problem(text) == null),
                        Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(12))
                .injectNull(0.1);
    }

    @Provide
    Arbitrary<String> root() {
        return around(ID.value());
    }

    @Provide
    Arbitrary<String> attempt() {
        return around("2");
    }

    @Provide
    Arbitrary<String> owner() {
        return around(LEDGER);
    }

    @Provide
    Arbitrary<String> group() {
        return around("billing");
    }

    @Property
    void aReFailureCorrelatesOnlyWhenEveryHeaderIsExactlyTheRecordedValue(@ForAll("root") String root, @ForAll("attempt") String attempt,
                                                                          @ForAll("owner") String owner, @ForAll("group") String group) {
        List<CorrelationMismatch> mismatches = CorrelationCheck.mismatches(
                new CorrelationFacts(MATCHING, new ReplayHeaders(root, attempt, owner, group), LEDGER, RECORDED));
        boolean exact = ID.value().equals(root) && ("1".equals(attempt) || "2".equals(attempt))
                && LEDGER.equals(owner) && "billing".equals(group);
        assertThat(mismatches.isEmpty()).isEqualTo(exact);
    }

    @Property
    void theAttemptHeaderNamesAnAttemptOnlyInItsCanonicalDecimalForm(@ForAll("attempt") String attempt) {
        var named = new CorrelationFacts(MATCHING, new ReplayHeaders(ID.value(), attempt, LEDGER, "billing"), LEDGER, RECORDED).namedAttempt();
        assertThat(named.isPresent()).isEqualTo("1".equals(attempt) || "2".equals(attempt));
    }

    @Property
    void anyDifferenceInTheFailingValueFailsTheHashCheck(@ForAll byte[] replayed, @ForAll byte[] failing) {
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, KEY, TIMESTAMP,
                List.of(new RecordedAttempt(2, "billing", PayloadHash.of(replayed))));
        FailedRecord refailure = failure("orders", "billing", KEY, EVENT_ID, TIMESTAMP, PayloadHash.of(failing));
        boolean passes = CorrelationCheck.VALUE_HASH.passes(new CorrelationFacts(refailure,
                new ReplayHeaders(ID.value(), "2", LEDGER, "billing"), LEDGER, recorded));
        assertThat(passes).isEqualTo(Arrays.equals(replayed, failing));
    }

    @Property
    void keysCorrelateOnlyWhenByteIdentical(@ForAll byte[] recordedKey, @ForAll byte[] failingKey) {
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, RecordKey.of(recordedKey), TIMESTAMP, RECORDED.attempts());
        FailedRecord refailure = failure("orders", "billing", RecordKey.of(failingKey), EVENT_ID, TIMESTAMP, HASH);
        boolean passes = CorrelationCheck.KEY.passes(new CorrelationFacts(refailure, CorrelationCheckTest.HEADERS, LEDGER, recorded));
        assertThat(passes).isEqualTo(Arrays.equals(recordedKey, failingKey));
    }
}
