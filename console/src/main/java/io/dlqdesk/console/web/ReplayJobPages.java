package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.operations.replay.ReplayJobs;
import io.dlqdesk.projections.job.ListReplayJobsQuery;
import io.dlqdesk.projections.job.ReplayJobPage;
import org.axonframework.queryhandling.QueryGateway;
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

/**
 * Bulk replay jobs: their state and progress, who created each and why, and who approved it; a job awaiting approval is
 * approved here by a second person with the APPROVER role (four-eyes), and an operator cancels a job with work left.
 */
@Controller
public class ReplayJobPages {

    private static final int LISTED = 20;

    private final ReplayJobs jobs;
    private final QueryGateway queries;
    private final Clock clock = Clock.systemUTC();

    ReplayJobPages(ReplayJobs jobs, QueryGateway queries) {
        this.jobs = jobs;
        this.queries = queries;
    }

    @GetMapping("/console/replay-jobs")
    String list(Model model) {
        model.addAttribute("jobs", queries.query(new ListReplayJobsQuery(0, LISTED), ReplayJobPage.class).join().items());
        return "console/replay-jobs";
    }

    @PostMapping("/console/replay-jobs/{id}/approve")
    String approve(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return act(flash, () -> {
            jobs.approve(ReplayJobs.parseJobId(id), OperatorActions.of(caller, reason, clock));
            return "Approved " + id + ": it runs now.";
        });
    }

    @PostMapping("/console/replay-jobs/{id}/cancel")
    String cancel(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return act(flash, () -> {
            jobs.cancel(ReplayJobs.parseJobId(id), OperatorActions.of(caller, reason, clock));
            return "Cancelled " + id + ": nothing more of it is requested.";
        });
    }

    private static String act(RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("done", action.get());
        } catch (InvalidValueException | NotFoundException | ReplayJobCommandRefusedException e) {
            flash.addFlashAttribute("refused", "Nothing was changed: " + e.getMessage() + ".");
        }
        return "redirect:/console/replay-jobs";
    }
}
