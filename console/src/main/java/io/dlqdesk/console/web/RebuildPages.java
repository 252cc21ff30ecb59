package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.rebuild.ReadModelRebuilds;
import io.dlqdesk.rebuild.RebuildNotFoundException;
import io.dlqdesk.rebuild.RebuildRefusedException;
import io.dlqdesk.rebuild.RebuildView;
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

/** Bulk rebuilds of the read models: their progress for viewers; started or cancelled by an admin, with a reason. */
@Controller
public class RebuildPages {

    private static final int LISTED = 20;

    private final ReadModelRebuilds rebuilds;
    private final Clock clock = Clock.systemUTC();

    RebuildPages(ReadModelRebuilds rebuilds) {
        this.rebuilds = rebuilds;
    }

    @GetMapping("/console/rebuilds")
    String list(Model model) {
        model.addAttribute("rebuilds", rebuilds.recent(LISTED));
        model.addAttribute("processors", rebuilds.processors());
        return "console/rebuilds";
    }

    @PostMapping("/console/rebuilds")
    String start(@RequestParam(required = false) String processor, @RequestParam(required = false) String reason, Authentication caller,
                 RedirectAttributes flash) {
        return act(flash, () -> {
            RebuildView started = rebuilds.start(FormValues.text(processor), OperatorActions.of(caller, reason, clock));
            return "Started rebuild " + started.id() + " of " + started.processor() + ": the live tables serve until its swap.";
        });
    }

    @PostMapping("/console/rebuilds/{id}/cancel")
    String cancel(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return act(flash, () -> {
            RebuildView cancelled = rebuilds.cancel(id, OperatorActions.of(caller, reason, clock));
            return "Cancelled rebuild " + cancelled.id() + ": its shadow tables are dropped; the live ones were not touched.";
        });
    }

    private static String act(RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("done", action.get());
        } catch (InvalidValueException | RebuildNotFoundException | RebuildRefusedException e) {
            flash.addFlashAttribute("refused", "Nothing was changed: " + e.getMessage() + ".");
        }
        return "redirect:/console/rebuilds";
    }
}
