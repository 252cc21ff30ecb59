package io.dlqdesk.operations.export;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.projections.incident.IncidentSummaryView;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Incidents as CSV with the list's fields: a header row of the names the list's JSON gives them, in its order, then one row
 * per incident valued as that JSON shows it (the same {@link ObjectMapper} turns each incident into JSON first), so an
 * instant is the same ISO-8601 text and an enum the same name. A list value ({@code correlationMismatches}) is its JSON
 * text, {@code []} when empty. Cells follow {@link CsvCells}; UTF-8 without a byte-order mark.
 */
final class IncidentCsv implements ExportWriter {

    private final Writer out;
    private final ObjectMapper json;
    private final List<String> columns;

    IncidentCsv(OutputStream out, ObjectMapper json, List<String> columns) {
        this.out = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 32 * 1024);
        this.json = json;
        this.columns = columns;
    }

    /** The names {@code json} writes an incident's fields under, in the order it writes them. */
    static List<String> columns(ObjectMapper json) {
        try {
            List<String> names = new ArrayList<>();
            json.getSerializerProviderInstance().findValueSerializer(IncidentSummaryView.class).properties()
                    .forEachRemaining(property -> names.add(property.getName()));
            if (names.isEmpty()) {
                throw new IllegalStateException("the JSON of an incident has no fields");
            }
            return List.copyOf(names);
        } catch (JsonMappingException e) {
            throw new IllegalStateException("an incident cannot be written as JSON", e);
        }
    }

    /** The field names (identifiers: nothing to quote or neutralise). */
    @Override
    public void start() throws IOException {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                CsvCells.separator(out);
            }
            CsvCells.bare(columns.get(i), out);
        }
        CsvCells.endOfRow(out);
    }

    @Override
    public void write(IncidentSummaryView incident) throws IOException {
        JsonNode fields = json.valueToTree(incident);
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                CsvCells.separator(out);
            }
            cell(fields.get(columns.get(i)));
        }
        CsvCells.endOfRow(out);
    }

    /** A missing field is one the JSON leaves out when null. */
    private void cell(JsonNode value) throws IOException {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isTextual()) {
            CsvCells.text(value.textValue(), out);
        } else if (value.isNumber() || value.isBoolean()) {
            CsvCells.bare(value.asText(), out);
        } else {
            CsvCells.text(json.writeValueAsString(value), out);
        }
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
