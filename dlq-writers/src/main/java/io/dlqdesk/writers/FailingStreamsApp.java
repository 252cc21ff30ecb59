package io.dlqdesk.writers;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * A Kafka Streams app (kafka-streams 4.2+, KIP-1034) that copies its input topic to its output topic and throws on the
 * records a test marks. With {@code errors.dead.letter.queue.topic.name} and a built-in processing exception handler
 * in its config, Streams itself writes those records to the DLQ topic (which must exist: Streams does not create it).
 *
 * <p>{@code java ... io.dlqdesk.writers.FailingStreamsApp <properties file>}: the file holds the Streams config plus
 * {@code input.topic}, {@code output.topic} and {@code fail.markers.file}. Prints {@value #RUNNING} each time the app
 * reaches RUNNING (the harness waits for it); exits non-zero if Streams stops on its own (ERROR, or a failed start).
 */
public final class FailingStreamsApp {

    public static final String RUNNING = "FAILING-STREAMS-APP RUNNING";

    private FailingStreamsApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: FailingStreamsApp <properties file>");
            System.exit(2);
        }
        Properties config = load(Path.of(args[0]));
        // ours, not Streams': taken out so StreamsConfig does not warn about unknown keys
        String input = required(config, "input.topic");
        String output = required(config, "output.topic");
        // Streams calls mapValues per record: a file read each time would be wasteful, 200 ms staleness is fine for tests
        Markers markers = new Markers(Path.of(required(config, "fail.markers.file")), 200);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(value -> {
                    String marker = markers.matching(value);
                    if (marker != null) {
                        // a cause, so the DLQ's stack trace header has a "Caused by:" for the desk to parse
                        throw new IllegalStateException("payment service rejected a record (marker '" + marker + "')",
                                new java.net.ConnectException("downstream refused"));
                    }
                    return value;
                })
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));

        KafkaStreams streams = new KafkaStreams(builder.build(), config);
        CountDownLatch stopped = new CountDownLatch(1);
        int[] exitCode = {0};
        streams.setStateListener((newState, oldState) -> {
            if (newState == KafkaStreams.State.RUNNING) {
                System.out.println(RUNNING);
                System.out.flush();
            } else if (newState == KafkaStreams.State.ERROR) {
                exitCode[0] = 1;
                stopped.countDown();
            } else if (newState == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        // SIGTERM (Process.destroy): close Streams and its producer, so the harness's close() is quick and clean (the member
        // stays in the group until its session times out)
        Thread hook = new Thread(() -> {
            streams.close(Duration.ofSeconds(10));
            stopped.countDown();
        }, "failing-streams-app-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        streams.start();
        stopped.await();
        if (exitCode[0] != 0) {
            System.err.println("Kafka Streams went to ERROR: see the log above");
            streams.close(Duration.ofSeconds(10));
            System.exit(exitCode[0]);
        }
    }

    private static String required(Properties config, String key) {
        Object value = config.remove(key);
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException("the properties file lacks " + key);
        }
        return value.toString();
    }

    private static Properties load(Path file) throws IOException {
        Properties config = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            config.load(reader);
        }
        return config;
    }
}
