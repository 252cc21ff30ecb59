package io.dlqdesk.app;

import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.job.ReplayJob;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.AbstractSnapshotTrigger;
import org.axonframework.eventsourcing.SnapshotTrigger;
import org.axonframework.eventsourcing.SnapshotTriggerDefinition;
import org.axonframework.eventsourcing.Snapshotter;

/**
 * Snapshots a replay job every {@code max(50, manifest / 10)} events. A job's snapshot grows with its manifest (a few bytes
 * per incident), so a fixed count would write it a number of times that also grows with the manifest: bytes written would
 * grow with the square of the job. Scaled to the manifest, a job is snapshotted about as often whatever its size (its
 * incidents have about three events each: some 30 snapshots), and a load reads one snapshot and at most a tenth of the
 * manifest in events. The manifest's size is read from the job's first event or from the snapshot it was loaded from.
 */
final class JobSnapshotTriggerDefinition implements SnapshotTriggerDefinition {

    static final int MIN_EVENTS = 50;
    static final int MANIFEST_SHARE = 10;

    private final Snapshotter snapshotter;

    JobSnapshotTriggerDefinition(Snapshotter snapshotter) {
        this.snapshotter = snapshotter;
    }

    /** Events between two snapshots of a job of {@code manifest} incidents. */
    static int snapshotEvery(int manifest) {
        return Math.max(MIN_EVENTS, manifest / MANIFEST_SHARE);
    }

    @Override
    public SnapshotTrigger prepareTrigger(Class<?> aggregateType) {
        return new Trigger(snapshotter, aggregateType);
    }

    @Override
    public SnapshotTrigger reconfigure(Class<?> aggregateType, SnapshotTrigger trigger) {
        if (trigger instanceof Trigger scaled) {
            scaled.setSnapshotter(snapshotter);
            return scaled;
        }
        return prepareTrigger(aggregateType);
    }

    private static final class Trigger extends AbstractSnapshotTrigger {

        private static final long serialVersionUID = 1L;

        private int threshold = MIN_EVENTS;
        private int counter;

        Trigger(Snapshotter snapshotter, Class<?> aggregateType) {
            super(snapshotter, aggregateType);
        }

        @Override
        public void eventHandled(EventMessage<?> message) {
            Object payload = message.getPayload();
            if (payload instanceof ReplayJob snapshot) {
                threshold = snapshotEvery(snapshot.manifestSize());
            } else if (payload instanceof ReplayJobCreated created) {
                threshold = snapshotEvery(created.selected());
            }
            super.eventHandled(message);
        }

        @Override
        protected boolean exceedsThreshold() {
            return ++counter >= threshold;
        }

        @Override
        protected void reset() {
            counter = 0;
        }
    }
}
