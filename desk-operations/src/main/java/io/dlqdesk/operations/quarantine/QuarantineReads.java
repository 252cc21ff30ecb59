package io.dlqdesk.operations.quarantine;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.ingest.quarantine.FindQuarantinedRecordQuery;
import io.dlqdesk.ingest.quarantine.ListQuarantineQuery;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import io.dlqdesk.ingest.quarantine.QuarantinedRecordContent;
import io.dlqdesk.operations.NotFoundException;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;

/** DLQ records that could not become incidents: the list, and one of them. */
public class QuarantineReads {

    private final QueryGateway queries;

    public QuarantineReads(QueryGateway queries) {
        this.queries = queries;
    }

    /** A page of summaries, of one DLQ topic or ({@code null}) of all. */
    public QuarantinePage list(String dlqTopic, int page, int size) {
        return queries.query(new ListQuarantineQuery(dlqTopic, page, size), QuarantinePage.class).join();
    }

    /** The record at {@code location} with up to {@code prefixBytes} of its key and value; a 404 problem when none is there. */
    public QuarantinedRecordContent find(RecordLocation location, int prefixBytes) {
        return queries.query(new FindQuarantinedRecordQuery(location.topic(), location.partition(), location.offset(), prefixBytes),
                        ResponseTypes.optionalInstanceOf(QuarantinedRecordContent.class)).join()
                .orElseThrow(() -> new NotFoundException("no quarantined record at " + location.topic() + "/" + location.partition() + "@"
                        + location.offset()));
    }
}
