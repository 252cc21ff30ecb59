package io.dlqdesk.ingest.quarantine;

import java.util.List;

/** Summaries only: a record's headers, key and value are read one record at a time. */
public record QuarantinePage(List<QuarantineSummary> items, int page, int size, long total) {
}
