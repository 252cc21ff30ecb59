package io.dlqdesk.operations.export;

import io.dlqdesk.domain.InvalidValueException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The forms an export of incidents comes in, by the name its {@code format} parameter gives. */
public enum ExportFormat {

    /** RFC 4180: a header row, CRLF line ends, text cells quoted and neutralised against formulas ({@link CsvCells}). */
    CSV("csv", "text/csv;charset=UTF-8;header=present"),
    /** One JSON object per line, as the list's JSON shows an incident, each line ended by LF. */
    NDJSON("ndjson", "application/x-ndjson");

    private final String name;
    private final String contentType;

    ExportFormat(String name, String contentType) {
        this.name = name;
        this.contentType = contentType;
    }

    /** {@code csv} or {@code ndjson} (any case); anything else, or nothing, is a 400 naming both. */
    public static ExportFormat parse(String format) {
        String allowed = Arrays.stream(values()).map(ExportFormat::fileExtension).collect(Collectors.joining(" or "));
        if (format == null || format.isBlank()) {
            throw new InvalidValueException("parameter 'format' is required: " + allowed);
        }
        return Arrays.stream(values()).filter(candidate -> candidate.name.equals(format.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new InvalidValueException("parameter 'format' must be " + allowed + ", was '" + printable(format) + "'"));
    }

    public String fileExtension() {
        return name;
    }

    public String contentType() {
        return contentType;
    }

    /** A value echoed in a message: at most 40 characters, control characters as '?'. */
    private static String printable(String value) {
        String cut = value.length() > 40 ? value.substring(0, 40) + "…" : value;
        return cut.chars().mapToObj(c -> Character.isISOControl(c) ? "?" : String.valueOf((char) c)).collect(Collectors.joining());
    }
}
