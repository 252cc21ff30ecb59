package io.dlqdesk.api;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import io.dlqdesk.ingest.quarantine.QuarantinedRecord;
import io.dlqdesk.operations.quarantine.QuarantineReads;
import io.dlqdesk.operations.record.HeaderRedaction;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * DLQ records that can never become incidents, kept whole: a list of summaries (where, why, when, sizes), and one record
 * with its headers. A list never carries headers: a producer can write megabytes of them on every record.
 */
@RestController
public class QuarantineController {

    private final QuarantineReads quarantine;
    private final HeaderRedaction redaction;

    public QuarantineController(QuarantineReads quarantine, HeaderRedaction redaction) {
        this.quarantine = quarantine;
        this.redaction = redaction;
    }

    @GetMapping("/api/v1/quarantine")
    public QuarantinePage list(@RequestParam(name = "topic", required = false) String dlqTopic, @RequestParam(defaultValue = "0") int page,
                               @RequestParam(defaultValue = "50") int size) {
        return quarantine.list(dlqTopic, page, size);
    }

    /** One quarantined record with its headers, credentials redacted (dlqdesk.security.redacted-headers); key and value stay stored. */
    @GetMapping("/api/v1/quarantine/{topic}/{partition}/{offset}")
    public QuarantinedRecord record(@PathVariable String topic, @PathVariable int partition, @PathVariable long offset) {
        RecordLocation location = new RecordLocation(topic, partition, offset); // a legal topic name, or a 400
        QuarantinedRecord record = quarantine.find(location, 1).record();
        return new QuarantinedRecord(record.dlqTopic(), record.dlqPartition(), record.dlqOffset(), record.reason(), record.quarantinedAt(),
                redaction.redactHeadersJson(record.headersJson()), record.keyBytes(), record.valueBytes());
    }
}
