package io.dlqdesk.writers;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** See {@link FailingSinkConnector}. */
public final class FailingSinkTask extends SinkTask {

    static final String MARKERS_FILE = "fail.markers.file";
    static final String OUTPUT_FILE = "output.file";

    private Markers markers;
    private BufferedWriter output;
    private ErrantRecordReporter reporter;

    @Override
    public void start(Map<String, String> props) {
        Map<String, Object> config = FailingSinkConnector.CONFIG.parse(props);
        markers = new Markers(Path.of((String) config.get(MARKERS_FILE)), 0); // every put(): a test's edit applies to the next batch
        reporter = context.errantRecordReporter();
        // Null unless the connector has errors.deadletterqueue.topic.name (or errors.log.enable): without it a failing
        // record could not reach a DLQ, and a test waiting for one would only time out. Fail the task, visibly, instead.
        if (reporter == null) {
            throw new ConnectException("FailingSinkTask needs the errant record reporter (KIP-610): configure "
                    + "errors.deadletterqueue.topic.name and errors.tolerance=all on the connector");
        }
        try {
            output = Files.newBufferedWriter(Path.of((String) config.get(OUTPUT_FILE)), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new ConnectException("cannot open the output file", e);
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        List<Future<Void>> reported = new ArrayList<>();
        try {
            for (SinkRecord record : records) {
                byte[] value = (byte[]) record.value(); // ByteArrayConverter: the raw bytes
                String marker = markers.matching(value);
                if (marker != null) {
                    // the framework's own record, so the runtime writes the consumed bytes, not a re-serialized copy
                    reported.add(reporter.report(record, new IllegalStateException("payment service rejected "
                            + record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset() + " (marker '" + marker + "')",
                            new java.net.ConnectException("downstream refused"))));
                } else {
                    output.write(record.topic() + "\t" + record.kafkaPartition() + "\t" + record.kafkaOffset() + "\t"
                            + (value == null ? "" : new String(value, StandardCharsets.UTF_8)));
                    output.newLine();
                }
            }
            output.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The DLQ sends are asynchronous; waiting here means they are acknowledged before this batch's offsets can be
        // committed, so a test that sees the commit also sees the dead letters.
        for (Future<Void> future : reported) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectException("interrupted while the DLQ write was pending", e);
            } catch (ExecutionException e) {
                throw new ConnectException("the DLQ write failed", e.getCause());
            }
        }
    }

    @Override
    public void stop() {
        if (output != null) {
            try {
                output.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public String version() {
        return "0.1.0";
    }
}
