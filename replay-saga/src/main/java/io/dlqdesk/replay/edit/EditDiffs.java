package io.dlqdesk.replay.edit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.record.DltHeaderReader;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The diff of an edit against its source record. A value that is JSON before and after is compared by structure: one change
 * per JSON Pointer path whose value differs, was added or removed. Any other value is one range, the bytes (or, when both are
 * UTF-8 text, the characters) between the longest common prefix and suffix. Headers are compared by name and position.
 */
public final class EditDiffs {

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private EditDiffs() {
    }

    /**
     * @param sourceHeaders the source record's headers, in order
     * @param editedHeaders the headers the replay would carry (the source record's, when the edit keeps them)
     */
    public static EditDiff between(byte[] sourceValue, byte[] editedValue, Headers sourceHeaders, Headers editedHeaders) {
        List<EditDiff.Change> valueChanges = new ArrayList<>();
        EditDiff.Kind kind = valueDiff(sourceValue, editedValue, valueChanges);
        List<EditDiff.Change> headerChanges = headerDiff(sourceHeaders, editedHeaders);
        return new EditDiff(kind, valueChanges, headerChanges);
    }

    private static EditDiff.Kind valueDiff(byte[] before, byte[] after, List<EditDiff.Change> changes) {
        Optional<JsonNode> beforeJson = json(before);
        Optional<JsonNode> afterJson = beforeJson.isPresent() ? json(after) : Optional.empty();
        if (beforeJson.isPresent() && afterJson.isPresent()) {
            jsonDiff("", beforeJson.get(), afterJson.get(), changes);
            return EditDiff.Kind.JSON;
        }
        // control characters would be escaped six-fold in the stored event: such values are compared as bytes
        Optional<String> beforeText = text(before).filter(EditDiffs::printable);
        Optional<String> afterText = beforeText.isPresent() ? text(after).filter(EditDiffs::printable) : Optional.empty();
        if (beforeText.isPresent() && afterText.isPresent()) {
            textDiff(beforeText.get(), afterText.get(), changes);
            return EditDiff.Kind.TEXT;
        }
        bytesDiff(before, after, changes);
        return EditDiff.Kind.BYTES;
    }

    private static Optional<JsonNode> json(byte[] value) {
        try {
            return Optional.ofNullable(JSON.readTree(value)).filter(node -> !node.isMissingNode());
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    private static void jsonDiff(String path, JsonNode before, JsonNode after, List<EditDiff.Change> changes) {
        if (before.equals(after)) {
            return;
        }
        if (before.isObject() && after.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = before.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String at = path + "/" + pointerToken(field.getKey());
                JsonNode now = after.get(field.getKey());
                if (now == null) {
                    changes.add(new EditDiff.Change(at, write(field.getValue()), null));
                } else {
                    jsonDiff(at, field.getValue(), now, changes);
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = after.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!before.has(field.getKey())) {
                    changes.add(new EditDiff.Change(path + "/" + pointerToken(field.getKey()), null, write(field.getValue())));
                }
            }
        } else if (before.isArray() && after.isArray()) {
            int common = Math.min(before.size(), after.size());
            for (int i = 0; i < common; i++) {
                jsonDiff(path + "/" + i, before.get(i), after.get(i), changes);
            }
            for (int i = common; i < before.size(); i++) {
                changes.add(new EditDiff.Change(path + "/" + i, write(before.get(i)), null));
            }
            for (int i = common; i < after.size(); i++) {
                changes.add(new EditDiff.Change(path + "/" + i, null, write(after.get(i))));
            }
        } else {
            changes.add(new EditDiff.Change(path, write(before), write(after)));
        }
    }

    /** RFC 6901: '~' and '/' escaped. */
    private static String pointerToken(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed JSON node is always writable", e);
        }
    }

    private static void textDiff(String before, String after, List<EditDiff.Change> changes) {
        if (before.equals(after)) {
            return;
        }
        int prefix = 0;
        int max = Math.min(before.length(), after.length());
        while (prefix < max && before.charAt(prefix) == after.charAt(prefix)) {
            prefix++;
        }
        if (prefix > 0 && Character.isHighSurrogate(before.charAt(prefix - 1))) {
            prefix--; // never split a pair
        }
        int suffix = 0;
        while (suffix < max - prefix && before.charAt(before.length() - 1 - suffix) == after.charAt(after.length() - 1 - suffix)) {
            suffix++;
        }
        if (suffix > 0 && Character.isLowSurrogate(before.charAt(before.length() - suffix))) {
            suffix--;
        }
        String removed = before.substring(prefix, before.length() - suffix);
        String added = after.substring(prefix, after.length() - suffix);
        changes.add(new EditDiff.Change("chars " + prefix + ".." + (before.length() - suffix), removed, added));
    }

    private static void bytesDiff(byte[] before, byte[] after, List<EditDiff.Change> changes) {
        int max = Math.min(before.length, after.length);
        int prefix = 0;
        while (prefix < max && before[prefix] == after[prefix]) {
            prefix++;
        }
        if (prefix == before.length && prefix == after.length) {
            return;
        }
        int suffix = 0;
        while (suffix < max - prefix && before[before.length - 1 - suffix] == after[after.length - 1 - suffix]) {
            suffix++;
        }
        HexFormat hex = HexFormat.of();
        changes.add(new EditDiff.Change("bytes " + prefix + ".." + (before.length - suffix),
                hex.formatHex(before, prefix, before.length - suffix), hex.formatHex(after, prefix, after.length - suffix)));
    }

    /** Headers by name, then by position among the headers of that name. */
    private static List<EditDiff.Change> headerDiff(Headers before, Headers after) {
        Map<String, List<byte[]>> beforeByName = byName(before);
        Map<String, List<byte[]>> afterByName = byName(after);
        Map<String, Boolean> names = new LinkedHashMap<>();
        beforeByName.keySet().forEach(name -> names.put(name, true));
        afterByName.keySet().forEach(name -> names.put(name, true));
        List<EditDiff.Change> changes = new ArrayList<>();
        for (String name : names.keySet()) {
            List<byte[]> was = beforeByName.getOrDefault(name, List.of());
            List<byte[]> is = afterByName.getOrDefault(name, List.of());
            for (int i = 0; i < Math.max(was.size(), is.size()); i++) {
                String beforeText = i < was.size() ? shown(was.get(i)) : null;
                String afterText = i < is.size() ? shown(is.get(i)) : null;
                if (!java.util.Objects.equals(beforeText, afterText)) {
                    changes.add(new EditDiff.Change(name + "[" + i + "]", beforeText, afterText));
                }
            }
        }
        return changes;
    }

    private static Map<String, List<byte[]>> byName(Headers headers) {
        Map<String, List<byte[]>> byName = new LinkedHashMap<>();
        for (Header header : headers) {
            byName.computeIfAbsent(header.key(), name -> new ArrayList<>()).add(header.value());
        }
        return byName;
    }

    /** A header value in words: its UTF-8 text, hex (0x...) when it is not printable text, or "(no value)". */
    static String shown(byte[] value) {
        if (value == null) {
            return "(no value)";
        }
        return text(value).filter(text -> text.chars().noneMatch(Character::isISOControl))
                .orElseGet(() -> "0x" + HexFormat.of().formatHex(value));
    }

    private static boolean printable(String text) {
        return text.chars().noneMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }

    private static Optional<String> text(byte[] value) {
        return Optional.ofNullable(DltHeaderReader.strictUtf8(value));
    }
}
