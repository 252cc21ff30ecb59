package io.dlqdesk.operations.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dlqdesk.projections.incident.IncidentSummaryView;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Incidents as newline-delimited JSON: each one the object the list's JSON holds for it (the same {@link ObjectMapper}),
 * on a line of its own ended by LF. A line break inside a value is escaped by JSON, so a line is always one incident.
 */
final class IncidentNdjson implements ExportWriter {

    private final JsonGenerator out;
    private final ObjectWriter incidents;

    IncidentNdjson(OutputStream out, ObjectMapper json) throws IOException {
        this.out = json.getFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        this.out.setRootValueSeparator(null); // each line ends with its own LF, below
        // flushing after every incident would send every incident in a packet of its own
        this.incidents = json.writerFor(IncidentSummaryView.class).without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    }

    @Override
    public void start() {
        // no header: every line names its fields
    }

    @Override
    public void write(IncidentSummaryView incident) throws IOException {
        incidents.writeValue(out, incident);
        out.writeRaw('\n');
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
