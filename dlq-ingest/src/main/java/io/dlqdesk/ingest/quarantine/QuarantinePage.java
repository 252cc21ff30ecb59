package io.dlqdesk.ingest.quarantine;

import java.util.List;

public record QuarantinePage(List<QuarantinedRecord> items, int page, int size, long total) {
}
