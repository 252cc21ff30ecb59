package io.dlqdesk.app;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The service's root, open to anyone: a browser is sent to the console (whose sign-in page it lands on), any other client
 * gets JSON links to the API document, the health probe and the console. Nothing here reads or says anything about incidents.
 */
@RestController
class ServiceRoot {

    static final Map<String, String> LINKS = Map.of("console", "/console", "api", "/v3/api-docs", "apiUi", "/swagger-ui.html",
            "health", "/actuator/health");

    @GetMapping("/")
    ResponseEntity<Map<String, Object>> root(@RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        if (asksForHtml(accept)) {
            return ResponseEntity.status(HttpStatus.FOUND).location(URI.create("/console")).build();
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Map.of("service", "dlq-incident-desk", "links", LINKS));
    }

    /** A browser names text/html; a client sending only {@code *}{@code /*} (curl) or JSON gets the links. */
    static boolean asksForHtml(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        try {
            List<MediaType> types = MediaType.parseMediaTypes(accept);
            return types.stream().anyMatch(type -> type.getQualityValue() > 0 && MediaType.TEXT_HTML.equalsTypeAndSubtype(type));
        } catch (IllegalArgumentException unreadable) {
            return false;
        }
    }
}
