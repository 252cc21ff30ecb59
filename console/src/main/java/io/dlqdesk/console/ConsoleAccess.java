package io.dlqdesk.console;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * Whether the signed-in user may send a request, asked of the same URL rules that decide it ({@link ConsoleSecurity}):
 * a page shows a button only when the server would accept it, from one source of truth. Templates call
 * {@code ${@consoleAccess.may('POST', '/console/...')}}.
 */
@Component("consoleAccess")
public class ConsoleAccess {

    private final WebInvocationPrivilegeEvaluator rules;

    ConsoleAccess(WebInvocationPrivilegeEvaluator rules) {
        this.rules = rules;
    }

    /** Those of {@code actions} the user may send as {@code method} to {@code prefix + action}, in their order. */
    public List<String> allowed(String method, String prefix, List<String> actions) {
        return actions.stream().filter(action -> may(method, prefix + action)).toList();
    }

    public boolean may(String method, String path) {
        Authentication user = SecurityContextHolder.getContext().getAuthentication();
        return user != null && rules.isAllowed(null, path, method, user);
    }
}
