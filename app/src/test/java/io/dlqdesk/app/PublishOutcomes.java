package io.dlqdesk.app;

import org.axonframework.messaging.Message;
import org.axonframework.monitoring.MessageMonitor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the Kafka publisher reported per event, in order: "{payload} acknowledged", "{payload} failed" or "{payload} ignored". */
final class PublishOutcomes implements MessageMonitor<Message<?>> {

    final List<String> reported = new CopyOnWriteArrayList<>();

    @Override
    public MonitorCallback onMessageIngested(Message<?> message) {
        return new MonitorCallback() {
            @Override
            public void reportSuccess() {
                reported.add(message.getPayload() + " acknowledged");
            }

            @Override
            public void reportFailure(Throwable cause) {
                reported.add(message.getPayload() + " failed");
            }

            @Override
            public void reportIgnored() {
                reported.add(message.getPayload() + " ignored");
            }
        };
    }

    long count(String outcome) {
        return reported.stream().filter(report -> report.endsWith(" " + outcome)).count();
    }
}
