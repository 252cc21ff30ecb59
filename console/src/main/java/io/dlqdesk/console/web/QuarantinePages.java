package io.dlqdesk.console.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.console.record.RecordRenderer;
import io.dlqdesk.console.record.ShownHeader;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import io.dlqdesk.ingest.quarantine.QuarantinedRecordContent;
import io.dlqdesk.operations.quarantine.QuarantineReads;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** The quarantine: DLQ records that can never become incidents, listed, and one with its raw headers, key and value. */
@Controller
public class QuarantinePages {

    private final QuarantineReads quarantine;
    private final RecordRenderer renderer;
    private final ObjectMapper json;
    private final int displayLimit;

    QuarantinePages(QuarantineReads quarantine, RecordRenderer renderer, ObjectMapper json, io.dlqdesk.console.ConsoleProperties properties) {
        this.quarantine = quarantine;
        this.renderer = renderer;
        this.json = json;
        this.displayLimit = (int) properties.recordDisplayLimit().toBytes();
    }

    @GetMapping("/console/quarantine")
    String list(@RequestParam(required = false) String topic, @RequestParam(defaultValue = "0") int page, Model model) {
        QuarantinePage found = quarantine.list(FormValues.text(topic), page, IncidentPages.PAGE_SIZE);
        model.addAttribute("quarantine", found);
        model.addAttribute("topic", topic == null ? "" : topic);
        model.addAttribute("hasNext", (long) (page + 1) * IncidentPages.PAGE_SIZE < found.total());
        return "console/quarantine";
    }

    @GetMapping("/console/quarantine/{topic}/{partition}/{offset}")
    String record(@PathVariable String topic, @PathVariable int partition, @PathVariable long offset, Model model) {
        RecordLocation location = new RecordLocation(topic, partition, offset); // a legal topic name, or a 400
        QuarantinedRecordContent content = quarantine.find(location, displayLimit + 1);
        model.addAttribute("content", content);
        model.addAttribute("timestamp", content.timestamp() < 0 ? null : Instant.ofEpochMilli(content.timestamp()));
        model.addAttribute("headers", headers(content.record().headersJson()));
        model.addAttribute("key", renderer.show(content.keyPrefix(), content.record().keyBytes() == null ? 0 : content.record().keyBytes()));
        model.addAttribute("value", renderer.show(content.valuePrefix(),
                content.record().valueBytes() == null ? 0 : content.record().valueBytes()));
        return "console/quarantine-record";
    }

    /** Stored as {@code [{"key": name, "value": base64}]}; a value that is not base64 is shown as the text stored. */
    private List<ShownHeader> headers(String headersJson) {
        List<ShownHeader> headers = new ArrayList<>();
        try {
            for (JsonNode header : json.readTree(headersJson == null ? "[]" : headersJson)) {
                String name = header.path("key").asText("");
                JsonNode value = header.get("value");
                byte[] bytes;
                try {
                    bytes = value == null || value.isNull() ? null : Base64.getDecoder().decode(value.asText());
                } catch (IllegalArgumentException notBase64) {
                    bytes = value.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                }
                headers.add(renderer.header(name, bytes));
            }
        } catch (Exception e) {
            headers.add(renderer.header("(headers could not be read)", null));
        }
        return headers;
    }
}
