package io.dlqdesk.operations.export;

import io.dlqdesk.projections.incident.IncidentSummaryView;

import java.io.IOException;

/** Writes incidents in one {@link ExportFormat}, one at a time; holds nothing but its output buffer. */
interface ExportWriter {

    /** What comes before the first incident (CSV: the header row). */
    void start() throws IOException;

    void write(IncidentSummaryView incident) throws IOException;

    /** Writes out what is buffered. */
    void finish() throws IOException;
}
