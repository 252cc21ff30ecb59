package io.dlqdesk.operations.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CSV export's rows, read back by an independent RFC 4180 reader (Jackson's CSV module): one header row of the list's
 * JSON field names, one row per incident whatever its values hold, each cell the JSON's value, and text a spreadsheet would
 * run as a formula neutralised by a leading {@code '}.
 */
class IncidentCsvTest {

    /** As Spring Boot configures the API's mapper: java.time as ISO-8601 text. */
    private static final ObjectMapper JSON = JsonMapper.builder().findAndAddModules().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private static final List<String> HOSTILE = List.of("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1", "a,b", "say \"hi\", twice \"\"",
            "line\nbreak", "line\r\nbreak", "bell\u0007esc\u001b[31mnul\u0000", "'already quoted", "", "ünïcödé 😀 \uFFFD", "=HYPERLINK(\"http://x\")");

    @Test
    void theHeaderNamesTheFieldsOfTheListsJsonInItsOrder() throws IOException {
        IncidentSummaryView incident = incident("com.example.Plain", "evt-1");
        List<String> jsonFields = new ArrayList<>();
        JSON.valueToTree(incident).fieldNames().forEachRemaining(jsonFields::add);

        List<List<String>> rows = read(csv(List.of(incident)));

        assertThat(rows.get(0)).containsExactlyElementsOf(jsonFields).hasSize(IncidentSummaryView.class.getRecordComponents().length);
    }

    @Test
    void everyCellIsTheJsonValueAndHostileTextStaysInItsCell() throws IOException {
        List<IncidentSummaryView> incidents = new ArrayList<>();
        for (String hostile : HOSTILE) {
            incidents.add(incident(hostile, hostile.isEmpty() ? null : "evt," + hostile.replaceAll("\\p{Cntrl}", "")));
        }

        List<List<String>> rows = read(csv(incidents));

        assertThat(rows).hasSize(incidents.size() + 1);
        List<String> header = rows.get(0);
        for (int i = 0; i < incidents.size(); i++) {
            JsonNode json = JSON.valueToTree(incidents.get(i));
            List<String> row = rows.get(i + 1);
            assertThat(row).as("row %d", i).hasSize(header.size());
            for (int c = 0; c < header.size(); c++) {
                assertThat(row.get(c)).as("row %d, %s", i, header.get(c)).isEqualTo(expectedCell(json.get(header.get(c))));
            }
        }
    }

    @Test
    void formulaStartsGetAQuoteAndOtherTextIsLeftAlone() throws IOException {
        String text = csv(List.of(incident("=cmd|' /C calc'!A0", "-1"), incident("@x", "+x"), incident("\tx", "\rx"), incident("x=1", "a-b")));

        assertThat(text).contains("\"'=cmd|' /C calc'!A0\"", "\"'-1\"", "\"'@x\"", "\"'+x\"", "\"'\tx\"", "\"'\rx\"", "\"x=1\"", "\"a-b\"");
        assertThat(text.lines().skip(1)).noneMatch(line -> line.startsWith("=") || line.contains(",="));
    }

    @Test
    void nullIsAnEmptyCellAndTheEmptyTextIsQuotedAndNumbersAreBare() throws IOException {
        String row = csv(List.of(incident("", null))).split("\r\n")[1];

        assertThat(row).contains(",\"\",").contains(",,").contains(",7,").contains(",true,").doesNotContain("\"7\"");
    }

    @Test
    void rowsEndWithCrLfAndTheFileIsUtf8() throws IOException {
        byte[] bytes = bytes(List.of(incident("ünïcödé 😀", "evt-1")));

        assertThat(new String(bytes, StandardCharsets.UTF_8)).endsWith("\r\n").contains("ünïcödé 😀");
        assertThat(bytes[0]).as("no byte-order mark").isEqualTo((byte) 'i');
    }

    /** What the JSON shows, as the cell reads back: text with a ' before a formula start, lists as their JSON. */
    private static String expectedCell(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isTextual()) {
            String text = value.textValue();
            return !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
        }
        return value.isContainerNode() ? value.toString() : value.asText();
    }

    static IncidentSummaryView incident(String exceptionClass, String eventId) {
        return new IncidentSummaryView("inc-0123456789abcdef0123456789abcdef", "orders", 3, 7, "billing", IncidentStatus.OPEN,
                Instant.parse("2026-11-30T08:00:00.123456Z"), exceptionClass, "0123456789abcdef", exceptionClass + " for <n>", 2, 1,
                PublishStatus.PUBLISHED, 0, null, List.of(CorrelationMismatch.values()[0], CorrelationMismatch.values()[1]), true, null,
                eventId, "orders.dlq", 0, 42, DlqDialect.SPRING);
    }

    private static String csv(List<IncidentSummaryView> incidents) throws IOException {
        return new String(bytes(incidents), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(List<IncidentSummaryView> incidents) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IncidentCsv writer = new IncidentCsv(out, JSON, IncidentCsv.columns(JSON));
        writer.start();
        for (IncidentSummaryView incident : incidents) {
            writer.write(incident);
        }
        writer.finish();
        return out.toByteArray();
    }

    private static List<List<String>> read(String csv) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        new CsvMapper().readerForListOf(String.class).with(CsvParser.Feature.WRAP_AS_ARRAY).<List<String>>readValues(csv)
                .forEachRemaining(rows::add);
        return rows;
    }
}
