package io.dlqdesk.console.web;

import io.dlqdesk.domain.PageBounds;
import io.dlqdesk.projections.asof.AsOfCursor;
import io.dlqdesk.projections.asof.FindIncidentsAsOfQuery;
import io.dlqdesk.projections.asof.IncidentsAsOfPage;
import io.dlqdesk.projections.history.AuditPage;
import io.dlqdesk.projections.history.ListAuditQuery;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.time.Instant;

/** The audit trail (operator actions by principal and time) and the ledger as it stood at an instant. */
@Controller
public class AuditPages {

    private final QueryGateway queries;

    AuditPages(QueryGateway queries) {
        this.queries = queries;
    }

    @GetMapping("/console/audit")
    String audit(@RequestParam(required = false) String principal, @RequestParam(required = false) String from,
                 @RequestParam(required = false) String to, @RequestParam(defaultValue = "0") int page, Model model) {
        model.addAttribute("principal", principal == null ? "" : principal);
        Instant fromInstant = FormValues.instant("from", from);
        Instant toInstant = FormValues.instant("to", to);
        // exact in the paging links; as the browser's date-time field shows them (UTC, seconds) in the form
        model.addAttribute("from", fromInstant == null ? "" : fromInstant.toString());
        model.addAttribute("to", toInstant == null ? "" : toInstant.toString());
        model.addAttribute("fromField", FormValues.field(fromInstant));
        model.addAttribute("toField", FormValues.field(toInstant));
        AuditPage audit = queries.query(new ListAuditQuery(FormValues.text(principal), fromInstant, toInstant, page, IncidentPages.PAGE_SIZE),
                AuditPage.class).join();
        model.addAttribute("audit", audit);
        model.addAttribute("hasNext", (long) (page + 1) * IncidentPages.PAGE_SIZE < audit.total()
                && (long) (page + 1) * IncidentPages.PAGE_SIZE <= PageBounds.MAX_OFFSET);
        return "console/audit";
    }

    @GetMapping("/console/as-of")
    String asOf(@RequestParam(required = false) String at, @RequestParam(required = false) String after, Model model) {
        Instant instant = FormValues.instant("at", at);
        model.addAttribute("at", instant == null ? "" : instant.toString()); // the next page asks about exactly this instant
        model.addAttribute("atField", FormValues.field(instant));
        if (instant != null) {
            model.addAttribute("ledger", queries.query(new FindIncidentsAsOfQuery(instant,
                    FormValues.text(after) == null ? null : AsOfCursor.of(after), 100), IncidentsAsOfPage.class).join());
        }
        return "console/as-of";
    }
}
