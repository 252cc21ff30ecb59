package io.dlqdesk.operations.record;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hides the values of DLQ record headers whose names are on the deny-list (credentials a producer put on
 * a record: Authorization, cookies, API keys) in every answer that shows headers. Names are compared
 * ignoring ASCII case; the header stays listed, its value becomes {@value #REDACTED}.
 */
public final class HeaderRedaction {

    public static final String REDACTED = "[redacted]";

    private final Set<String> denied;
    private final ObjectMapper json;

    public HeaderRedaction(Collection<String> denied, ObjectMapper json) {
        this.denied = denied.stream().map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.json = json;
    }

    public boolean isDenied(String headerName) {
        return headerName != null && denied.contains(headerName.toLowerCase(Locale.ROOT));
    }

    /**
     * Headers as stored with a quarantined record, {@code [{"key": …, "value": base64}, …]}, with denied
     * values replaced. Anything that is not that shape is withheld whole rather than shown unredacted.
     */
    public String redactHeadersJson(String headersJson) {
        if (headersJson == null) {
            return null;
        }
        try {
            JsonNode headers = json.readTree(headersJson);
            if (!(headers instanceof ArrayNode list)) {
                return "[]";
            }
            for (JsonNode header : list) {
                if (header instanceof ObjectNode entry && isDenied(entry.path("key").asText(null))) {
                    entry.put("value", REDACTED);
                }
            }
            return json.writeValueAsString(list);
        } catch (Exception e) {
            return "[]";
        }
    }
}
