package io.dlqdesk.writers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The markers a test puts in a text file, one per non-empty line: a record whose value (read as UTF-8) contains one
 * of them fails. Read from the file again and again, so a test "fixes" the consumer by removing a line.
 */
final class Markers {

    private final Path file;
    private final long minIntervalNanos;
    private List<String> markers = List.of();
    private long readAt;
    private boolean read;

    /** @param minIntervalMillis how stale the markers may be; 0 reads the file on every {@link #current()} */
    Markers(Path file, long minIntervalMillis) {
        this.file = file;
        this.minIntervalNanos = minIntervalMillis * 1_000_000L;
    }

    synchronized List<String> current() {
        long now = System.nanoTime();
        if (!read || now - readAt >= minIntervalNanos) {
            markers = load(file);
            readAt = now;
            read = true;
        }
        return markers;
    }

    /** The first marker the value contains, or null: the record should be processed. */
    String matching(byte[] value) {
        if (value == null) {
            return null;
        }
        String text = new String(value, StandardCharsets.UTF_8);
        for (String marker : current()) {
            if (text.contains(marker)) {
                return marker;
            }
        }
        return null;
    }

    private static List<String> load(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip).filter(line -> !line.isEmpty()).toList();
        } catch (NoSuchFileException e) {
            return List.of(); // no file: nothing fails
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the markers file " + file, e);
        }
    }
}
