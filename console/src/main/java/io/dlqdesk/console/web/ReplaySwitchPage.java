package io.dlqdesk.console.web;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.replay.request.ReplaySwitch;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.time.Clock;

/** The replay switch: its state, whether configuration forces it off, the recent changes; an admin turns it on or off with a reason. */
@Controller
public class ReplaySwitchPage {

    private final ReplaySwitch replaySwitch;
    private final Clock clock = Clock.systemUTC();

    ReplaySwitchPage(ReplaySwitch replaySwitch) {
        this.replaySwitch = replaySwitch;
    }

    @GetMapping("/console/replay-switch")
    String page(Model model) {
        model.addAttribute("state", replaySwitch.state());
        return "console/replay-switch";
    }

    @PostMapping("/console/replay-switch")
    String set(@RequestParam boolean enabled, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        OperatorAction action;
        try {
            action = OperatorActions.of(caller, reason, clock);
        } catch (InvalidValueException e) {
            flash.addFlashAttribute("refused", "Nothing was changed: " + e.getMessage() + ".");
            return "redirect:/console/replay-switch";
        }
        ReplaySwitch.State state = replaySwitch.set(enabled, action);
        flash.addFlashAttribute("done", "Replay switch turned " + (enabled ? "on" : "off") + (enabled && !state.on()
                ? ", but configuration (dlqdesk.replay.force-off) keeps it off." : "."));
        return "redirect:/console/replay-switch";
    }
}
