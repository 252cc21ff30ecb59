package io.dlqdesk.api;

import io.dlqdesk.ingest.quarantine.ListQuarantineQuery;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import io.dlqdesk.ingest.quarantine.QuarantinedRecord;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** DLQ records that can never become incidents, kept whole: what they were and why. */
@RestController
public class QuarantineController {

    private final QueryGateway queries;
    private final HeaderRedaction redaction;

    public QuarantineController(QueryGateway queries, SecurityProperties security, ObjectMapper json) {
        this.queries = queries;
        this.redaction = new HeaderRedaction(security.redactedHeaders(), json);
    }

    @GetMapping("/api/v1/quarantine")
    public QuarantinePage list(@RequestParam(name = "topic", required = false) String dlqTopic, @RequestParam(defaultValue = "0") int page,
                               @RequestParam(defaultValue = "50") int size) {
        PageBounds.require(page, size);
        QuarantinePage found = queries.query(new ListQuarantineQuery(dlqTopic, page, size), QuarantinePage.class).join();
        return new QuarantinePage(found.items().stream().map(this::redacted).toList(), found.page(), found.size(), found.total());
    }

    /** Credentials a producer put in a header are not shown (dlqdesk.security.redacted-headers). */
    private QuarantinedRecord redacted(QuarantinedRecord record) {
        return new QuarantinedRecord(record.dlqTopic(), record.dlqPartition(), record.dlqOffset(), record.reason(), record.quarantinedAt(),
                redaction.redactHeadersJson(record.headersJson()), record.keyBytes(), record.valueBytes());
    }
}
