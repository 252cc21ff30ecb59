package io.dlqdesk.projections.incident;

import java.io.IOException;

/** Where {@link IncidentSummaryExport} hands the incidents it reads, one at a time, as they come from the database. */
public interface IncidentSink {

    /**
     * Called once, before the first incident: how many follow (counted in the snapshot they are read from, so exactly as
     * many follow). Throwing refuses the export before anything is read.
     */
    void begin(long incidents) throws IOException;

    /** The next incident; an {@link IOException} (the reader went away) ends the read at once. */
    void accept(IncidentSummaryView incident) throws IOException;
}
