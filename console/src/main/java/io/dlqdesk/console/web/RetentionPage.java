package io.dlqdesk.console.web;

import io.dlqdesk.retention.RetentionGuard;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The effective retention of every source topic, where each value comes from, and its flags (as {@code GET /api/v1/topics/retention}). */
@Controller
public class RetentionPage {

    private final RetentionGuard guard;

    RetentionPage(RetentionGuard guard) {
        this.guard = guard;
    }

    @GetMapping("/console/retention")
    String retention(Model model) {
        model.addAttribute("report", guard.report());
        return "console/retention";
    }
}
