package io.dlqdesk.console.record;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Reads a DLQ record for a page, on demand, with replay's source-record reader (assign, seek, never commit, bounded by
 * {@code dlqdesk.replay.source-read-timeout}), and renders it. Only the record at exactly that offset is shown: one that
 * compaction left in its place is not the record that failed. At most {@link #MAX_CONCURRENT_READS} pages read at once,
 * each with a consumer (the reader keeps that many between reads); a page that finds them all taken for
 * {@link #WAIT_FOR_READER} says to try again instead of opening one more consumer.
 */
public final class DlqRecords {

    /** As many as the source reader keeps idle: a crowd of viewers reuses them and never opens more. */
    static final int MAX_CONCURRENT_READS = SourceRecordReader.KEPT_CONSUMERS;
    static final Duration WAIT_FOR_READER = Duration.ofSeconds(2);

    private final Semaphore reads = new Semaphore(MAX_CONCURRENT_READS);
    private final SourceRecordReader reader;
    private final RecordRenderer renderer;

    public DlqRecords(SourceRecordReader reader, RecordRenderer renderer) {
        this.reader = reader;
        this.renderer = renderer;
    }

    /** The record, or why it cannot be shown. */
    public record Lookup(ShownRecord record, String unavailable) {
    }

    public Lookup read(RecordLocation location) {
        try {
            if (!reads.tryAcquire(WAIT_FOR_READER.toMillis(), TimeUnit.MILLISECONDS)) {
                return new Lookup(null, "other pages are reading DLQ records right now (at most " + MAX_CONCURRENT_READS
                        + " at once); try again in a moment");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Lookup(null, "interrupted while waiting to read the record; try again");
        }
        try {
            return readNow(location);
        } finally {
            reads.release();
        }
    }

    private Lookup readNow(RecordLocation location) {
        SourceRead read = reader.read(location);
        if (read instanceof SourceRead.Found found && found.atRequestedOffset()) {
            ConsumerRecord<byte[], byte[]> record = found.record();
            List<RecordRenderer.Header> headers = new ArrayList<>();
            for (Header header : record.headers()) {
                headers.add(new RecordRenderer.Header(header.key(), header.value()));
            }
            return new Lookup(renderer.record(record.topic(), record.partition(), record.offset(), record.timestamp(), record.key(), headers,
                    record.value()), null);
        }
        if (read instanceof SourceRead.Found found) {
            return new Lookup(null, "the record at offset " + location.offset() + " is gone (compacted); offset " + found.record().offset()
                    + " came back instead");
        }
        if (read instanceof SourceRead.NotThere notThere) {
            return new Lookup(null, "the record is no longer there: " + notThere.detail());
        }
        if (read instanceof SourceRead.NothingReadable nothing) {
            return new Lookup(null, "the record cannot be read: " + nothing.detail());
        }
        return new Lookup(null, "the broker could not be asked, try again: " + ((SourceRead.Unavailable) read).detail());
    }

    public RecordRenderer renderer() {
        return renderer;
    }
}
