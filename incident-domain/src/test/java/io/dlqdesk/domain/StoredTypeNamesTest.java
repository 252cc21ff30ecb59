package io.dlqdesk.domain;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * The type names already kept in event stores, on events topics and in parked-event tables still name their classes: an
 * event moved or renamed without an upcaster would make every stored copy unreadable.
 */
class StoredTypeNamesTest {

    private static final List<String> STORED = List.of(
            "io.dlqdesk.domain.api.DuplicateDeliveryRecorded", "io.dlqdesk.domain.api.IncidentAcknowledged",
            "io.dlqdesk.domain.api.IncidentDiscarded", "io.dlqdesk.domain.api.IncidentOpened", "io.dlqdesk.domain.api.IncidentReopened",
            "io.dlqdesk.domain.api.IncidentResolved", "io.dlqdesk.domain.api.JobReplayClaimed", "io.dlqdesk.domain.api.JobReplayDecided",
            "io.dlqdesk.domain.api.JobReplayRefailed", "io.dlqdesk.domain.api.JobReplayRefused", "io.dlqdesk.domain.api.JobReplayRequested",
            "io.dlqdesk.domain.api.PublishMarkedUnknown", "io.dlqdesk.domain.api.PublishResultRecorded",
            "io.dlqdesk.domain.api.ReplayConsumptionWaived", "io.dlqdesk.domain.api.ReplayJobApproved", "io.dlqdesk.domain.api.ReplayJobCancelled",
            "io.dlqdesk.domain.api.ReplayJobCompleted", "io.dlqdesk.domain.api.ReplayJobCreated",
            "io.dlqdesk.domain.api.ReplayJobManifestExtended", "io.dlqdesk.domain.api.ReplayJobPaused",
            "io.dlqdesk.domain.api.ReplayJobResumed", "io.dlqdesk.domain.api.ReplayRejected",
            "io.dlqdesk.domain.api.ReplayEditProposed", "io.dlqdesk.domain.api.ReplayEditApproved", "io.dlqdesk.domain.api.ReplayRequested",
            "io.dlqdesk.domain.api.RetryFailureCorrelated",
            "io.dlqdesk.domain.parked.EventParked", "io.dlqdesk.domain.parked.ParkedEventEvicted", "io.dlqdesk.domain.parked.ParkedEventsRetried",
            "io.dlqdesk.domain.rebuild.ReadModelRebuildRequested", "io.dlqdesk.domain.rebuild.ReadModelRebuildCancelled",
            // a replay job's snapshot
            "io.dlqdesk.domain.job.ReplayJob");

    @Test
    void everyStoredTypeNameStillNamesItsClass() {
        for (String name : STORED) {
            assertThatCode(() -> Class.forName(name)).as(name).doesNotThrowAnyException();
        }
    }

    /** A class added to the events' package is a new stored name: it joins the list above; anything else belongs elsewhere. */
    @Test
    void theEventsPackageHoldsTheStoredEventsAndNothingElse() throws Exception {
        Path events = Path.of(StoredTypeNamesTest.class.getResource("/io/dlqdesk/domain/api/IncidentOpened.class").toURI()).getParent();
        List<String> found;
        try (Stream<Path> classes = Files.list(events)) {
            found = classes.map(file -> file.getFileName().toString()).filter(file -> file.endsWith(".class") && !file.contains("$")
                    && !file.equals("package-info.class")).map(file -> "io.dlqdesk.domain.api." + file.substring(0, file.length() - 6)).toList();
        }
        assertThat(found).containsExactlyInAnyOrderElementsOf(STORED.stream().filter(name -> name.startsWith("io.dlqdesk.domain.api.")).toList());
    }
}
