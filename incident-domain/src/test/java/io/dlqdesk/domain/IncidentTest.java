package io.dlqdesk.domain;

import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.OpenIncidentCommand;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

class IncidentTest {

    private static final FailureKey KEY = new FailureKey("orders", 3, 42L, "billing");
    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }

    @Test
    void openingAnIncidentRecordsTheFailureKeyUnderItsDerivedId() {
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forFailure(KEY, NOW))
                .expectSuccessfulHandlerExecution()
                .expectEvents(new IncidentOpened(IncidentId.of(KEY), KEY, NOW));
    }
}
