package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.domain.PageBounds;
import io.dlqdesk.parked.ParkedEventNotFoundException;
import io.dlqdesk.parked.ParkedEventPage;
import io.dlqdesk.parked.ParkedEvents;
import io.dlqdesk.parked.RetryOutcome;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.time.Clock;
import java.util.function.Supplier;

/** Events a processor could not handle and parked: listed for viewers; retried or evicted by an admin, with a reason. */
@Controller
public class ParkedEventPages {

    private final ParkedEvents parked;
    private final Clock clock = Clock.systemUTC();

    ParkedEventPages(ParkedEvents parked) {
        this.parked = parked;
    }

    @GetMapping("/console/parked-events")
    String list(@RequestParam(required = false) String processingGroup, @RequestParam(defaultValue = "0") int page, Model model) {
        PageBounds.require(page, IncidentPages.PAGE_SIZE);
        String group = FormValues.text(processingGroup);
        ParkedEventPage found = parked.list(group, page, IncidentPages.PAGE_SIZE);
        model.addAttribute("parked", found);
        model.addAttribute("groups", parked.groups());
        model.addAttribute("processingGroup", group == null ? "" : group);
        model.addAttribute("hasNext", (long) (page + 1) * IncidentPages.PAGE_SIZE < found.total());
        return "console/parked-events";
    }

    @PostMapping("/console/parked-events/{id}/retry")
    String retry(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return act(flash, () -> {
            RetryOutcome outcome = parked.retry(id, OperatorActions.of(caller, reason, clock));
            return outcome.applied() == 1 ? "Applied: sequence " + outcome.sequence() + " left the queue."
                    : "Still parked: sequence " + outcome.sequence() + " failed again (one attempt more).";
        });
    }

    @PostMapping("/console/parked-events/retry")
    String retryAll(@RequestParam String processingGroup, @RequestParam(required = false) String reason, Authentication caller,
                    RedirectAttributes flash) {
        return act(flash, () -> {
            RetryOutcome outcome = parked.retryAll(processingGroup, OperatorActions.of(caller, reason, clock));
            return "Retried " + processingGroup + ": " + outcome.applied() + " sequence(s) applied, " + outcome.stillParked() + " still parked.";
        });
    }

    @PostMapping("/console/parked-events/{id}/evict")
    String evict(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return act(flash, () -> {
            OperatorAction action = OperatorActions.of(caller, reason, clock);
            ParkedEvent evicted = parked.evict(id, action);
            return "Evicted " + evicted.eventType() + " " + evicted.eventIdentifier() + ": " + evicted.processingGroup() + " never applies it.";
        });
    }

    /** {@code action} says what it did. */
    private static String act(RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("done", action.get());
        } catch (InvalidValueException | ParkedEventNotFoundException e) {
            flash.addFlashAttribute("refused", "Nothing was changed: " + e.getMessage() + ".");
        }
        return "redirect:/console/parked-events";
    }
}
