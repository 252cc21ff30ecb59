package io.dlqdesk.operations.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.operations.UnexpectedFailure;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.projections.incident.ExportIncidentsQuery;
import io.dlqdesk.projections.incident.IncidentSink;
import io.dlqdesk.projections.incident.IncidentSummaryExport;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.QueryTimeoutException;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * The export of the incident list, for both front doors: every incident the list's filters match, newest first, with the
 * list's fields, streamed from the database into the response as it is read ({@link IncidentSummaryExport}), so memory
 * stays the same however many there are. Before the first byte it is refused for a filter the list refuses (400), more
 * incidents than {@code dlqdesk.export.max-rows} (422, with the count) or too many exports at once (429); after it,
 * a failure breaks the response off ({@link BrokenOffResponses}) so that the client sees an incomplete transfer, and a
 * client that goes away ends the read at once.
 */
public final class IncidentExports {

    private static final Logger log = LoggerFactory.getLogger(IncidentExports.class);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final int OUTPUT_BUFFER = 64 * 1024;

    private final IncidentSummaryExport reader;
    private final ExportProperties limits;
    private final ObjectMapper json;
    private final List<String> csvColumns;
    private final Clock clock;
    private final Semaphore running;

    public IncidentExports(IncidentSummaryExport reader, ExportProperties limits, ObjectMapper json, Clock clock) {
        this.reader = reader;
        this.limits = limits;
        this.json = json;
        this.csvColumns = IncidentCsv.columns(json);
        this.clock = clock;
        this.running = new Semaphore(limits.maxConcurrent());
    }

    /**
     * Writes the incidents {@code filter} matches to {@code response} in {@code format} ({@code csv} or {@code ndjson});
     * a HEAD request counts them and sets the headers without reading them. Returns how many were sent.
     *
     * @param who the caller, for the log line that records the export
     */
    public long export(IncidentReads.Filter filter, String format, String who, HttpServletRequest request, HttpServletResponse response) {
        boolean headOnly = "HEAD".equals(request.getMethod());
        ExportFormat chosen = ExportFormat.parse(format);
        ExportIncidentsQuery query = new ExportIncidentsQuery(filter.topic(), filter.consumerGroup(), filter.status(),
                filter.exceptionGroup(), filter.detectedFrom(), filter.detectedTo(), filter.eventId(), filter.key());
        if (!running.tryAcquire()) {
            throw ExportRefusedException.busy(limits.maxConcurrent());
        }
        Download download = new Download(chosen, response);
        long started = System.nanoTime();
        try {
            if (headOnly) {
                download.headers(reader.count(query));
                return 0;
            }
            reader.read(query, limits.timeout(), download);
            download.finish();
            log.info("export of {} incidents as {} for {} sent in {} ms", download.sent, chosen.fileExtension(), who, millisSince(started));
            return download.sent;
        } catch (IOException clientGone) {
            // the client closed the connection or stopped reading: nobody is left to answer
            log.info("export of incidents as {} for {} broken off by the client after {} of {} incidents, {} ms: {}", chosen.fileExtension(), who,
                    download.sent, download.total, millisSince(started), clientGone.toString());
            return download.sent;
        } catch (RuntimeException failure) {
            if (!response.isCommitted()) {
                response.reset(); // not the export's headers on an error answer
                throw failure;
            }
            BrokenOffResponses.breakOff(request, brokenOff(failure, chosen, who, download));
            return download.sent;
        } finally {
            running.release();
        }
    }

    /** After the first byte left, a failure can only break the response off ({@link BrokenOffResponses}); logged here. */
    private static String brokenOff(RuntimeException failure, ExportFormat format, String who, Download download) {
        String what = "export of incidents as " + format.fileExtension() + " for " + who + " after " + download.sent + " of " + download.total
                + " incidents";
        if (failure instanceof QueryTimeoutException) {
            log.warn("{} broken off: {}", what, failure.getMessage());
            return what + " broken off: " + failure.getMessage();
        }
        String id = UnexpectedFailure.logged(log, what, failure);
        return what + " failed (error " + id + "), broken off";
    }

    private static long millisSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    /** The response as a sink: refuses or sets the headers once the count is known, then writes each incident. */
    private final class Download implements IncidentSink {

        private final ExportFormat format;
        private final HttpServletResponse response;
        private OutputStream out;
        private ExportWriter writer;
        private long total = -1;
        private long sent;

        Download(ExportFormat format, HttpServletResponse response) {
            this.format = format;
            this.response = response;
        }

        @Override
        public void begin(long incidents) throws IOException {
            headers(incidents);
            out = new BufferedOutputStream(response.getOutputStream(), OUTPUT_BUFFER);
            writer = format == ExportFormat.CSV ? new IncidentCsv(out, json, csvColumns) : new IncidentNdjson(out, json);
            writer.start();
        }

        /** Refuses more than max-rows incidents, else sets the headers: type, file name, how many follow. */
        void headers(long incidents) {
            if (incidents > limits.maxRows()) {
                throw ExportRefusedException.tooManyRows(incidents, limits.maxRows());
            }
            total = incidents;
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType(format.contentType());
            response.setHeader("Content-Disposition", "attachment; filename=\"incidents-" + FILE_TIME.format(clock.instant()) + "."
                    + format.fileExtension() + "\"");
            response.setHeader("X-Total-Count", Long.toString(incidents));
            response.setHeader("Cache-Control", "no-store");
        }

        @Override
        public void accept(IncidentSummaryView incident) throws IOException {
            writer.write(incident);
            sent++;
        }

        void finish() throws IOException {
            if (writer != null) {
                writer.finish();
                out.flush();
            }
        }
    }
}
