package io.dlqdesk.app;

import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OpenNewIncidentCommand;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every command resolves to the target Axon's own annotation resolver finds, the second time too; refusals are Axon's. */
class CommandTargetsByClassTest {

    private final CommandTargetsByClass resolver = new CommandTargetsByClass();
    private final AnnotationCommandTargetResolver axon = AnnotationCommandTargetResolver.builder().build();

    record OnAComponent(@TargetAggregateIdentifier String id, @TargetAggregateVersion Long version) {
    }

    record VersionAsText(@TargetAggregateIdentifier String id, @TargetAggregateVersion String version) {
    }

    static final class OnAField {
        @TargetAggregateIdentifier
        private final Object id;

        OnAField(Object id) {
            this.id = id;
        }
    }

    record Unannotated(String id) {
    }

    @Test
    void eachCommandResolvesAsAxonResolvesIt() {
        OpenIncidentCommand open = OpenIncidentCommand.forFailure(new FailedRecord(new FailureKey("orders", 1, 42L, "billing"),
                new RecordLocation("orders.dlq", 0, 7L), RecordKey.NONE, null, null, null, null), Duration.ofDays(7), Instant.EPOCH);
        List<Object> commands = List.of(open, new OpenNewIncidentCommand(open), new OnAComponent("a", 3L), new OnAComponent("b", null),
                new OnAComponent("c", 4L), new VersionAsText("d", "12"), new OnAField("e"), new OnAField(17));

        for (Object command : commands) {
            CommandMessage<?> message = GenericCommandMessage.asCommandMessage(command);
            VersionedAggregateIdentifier expected = axon.resolveTarget(message);
            assertThat(resolver.resolveTarget(message)).as("%s", command).isEqualTo(expected);
            assertThat(resolver.resolveTarget(message)).as("%s, once its class is known", command).isEqualTo(expected);
            assertThat(resolver.resolveTarget(message).getVersion()).isEqualTo(expected.getVersion());
        }
    }

    @Test
    void aCommandWithoutATargetIsRefusedInAxonsWords() {
        for (Object command : List.of(new Unannotated("x"), new OnAComponent(null, 1L), new VersionAsText("y", "not a number"))) {
            CommandMessage<?> message = GenericCommandMessage.asCommandMessage(command);
            Throwable axonsRefusal = catchRefusal(() -> axon.resolveTarget(message));
            assertThatThrownBy(() -> resolver.resolveTarget(message)).as("%s", command)
                    .isInstanceOf(axonsRefusal.getClass()).hasMessage(axonsRefusal.getMessage());
        }
    }

    private static Throwable catchRefusal(Runnable resolution) {
        try {
            resolution.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("Axon's resolver accepted it");
    }
}
