package io.dlqdesk.console.web;

import io.dlqdesk.console.ConsoleSecurity;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.servlet.ModelAndView;

/** The console's sign-in form (Spring Security handles its POST, the failure and logout redirects), and its 403 page. */
@Controller
public class LoginPage {

    @GetMapping(ConsoleSecurity.LOGIN)
    String login() {
        return "console/login";
    }

    /** Where the console's security chain forwards a refused request (a role that may not, a form without its CSRF token). */
    @RequestMapping("/console/forbidden")
    ModelAndView forbidden() {
        return ConsoleAdvice.page(HttpStatus.FORBIDDEN, "Not allowed",
                "Your role does not allow this, or the form was sent without its security token (reload the page and try again).");
    }
}
