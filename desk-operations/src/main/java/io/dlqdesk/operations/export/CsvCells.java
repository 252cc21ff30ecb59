package io.dlqdesk.operations.export;

import java.io.IOException;
import java.io.Writer;

/**
 * How a value becomes a CSV cell (RFC 4180), safe to open in a spreadsheet:
 * <ul>
 * <li>text is always quoted, a {@code "} in it doubled; commas, CR, LF and other control characters stay inside the quotes,
 * so a cell never spills into the next one or the next row;</li>
 * <li>text starting with {@code =}, {@code +}, {@code -}, {@code @}, tab or CR, which a spreadsheet would run as a formula
 * (CSV injection), gets a {@code '} in front, as OWASP advises: the cell shows as text. NDJSON keeps such values as they are;</li>
 * <li>a number or a boolean is written as JSON writes it, unquoted (numbers of ours, never a formula);</li>
 * <li>null is an empty cell, unquoted, and the empty text {@code ""}, so the two stay apart.</li>
 * </ul>
 */
final class CsvCells {

    /** The characters a spreadsheet starts a formula with (OWASP, CSV Injection). */
    private static final String FORMULA_STARTS = "=+-@\t\r";

    private CsvCells() {
    }

    static void text(String value, Writer out) throws IOException {
        out.write('"');
        if (!value.isEmpty() && FORMULA_STARTS.indexOf(value.charAt(0)) >= 0) {
            out.write('\'');
        }
        int from = 0;
        for (int quote = value.indexOf('"'); quote >= 0; quote = value.indexOf('"', from)) {
            out.write(value, from, quote + 1 - from);
            out.write('"');
            from = quote + 1;
        }
        out.write(value, from, value.length() - from);
        out.write('"');
    }

    /** As it is, unquoted: a number or a boolean as JSON writes it, a field name of the header. */
    static void bare(String value, Writer out) throws IOException {
        out.write(value);
    }

    static void separator(Writer out) throws IOException {
        out.write(',');
    }

    static void endOfRow(Writer out) throws IOException {
        out.write("\r\n");
    }
}
