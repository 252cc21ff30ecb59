package io.dlqdesk.api;

import io.dlqdesk.ingest.quarantine.ListQuarantineQuery;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** DLQ records that can never become incidents, kept whole: what they were and why. */
@RestController
public class QuarantineController {

    private final QueryGateway queries;

    public QuarantineController(QueryGateway queries) {
        this.queries = queries;
    }

    @GetMapping("/api/v1/quarantine")
    public QuarantinePage list(@RequestParam(name = "topic", required = false) String dlqTopic, @RequestParam(defaultValue = "0") int page,
                               @RequestParam(defaultValue = "50") int size) {
        return queries.query(new ListQuarantineQuery(dlqTopic, page, size), QuarantinePage.class).join();
    }
}
