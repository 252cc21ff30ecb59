package io.dlqdesk.app;

import org.springframework.context.ConfigurableApplicationContext;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A browser's view of the console at the HTTP level: a cookie jar, the login form, the CSRF token the pages carry. */
final class ConsoleSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;

    ConsoleSession(ConfigurableApplicationContext app) {
        this.base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        this.http = HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Signed in as a test user (every one has {@link RunningApp#PASSWORD}); the answer to the login POST. */
    static ConsoleSession signedIn(ConfigurableApplicationContext app, String user) throws Exception {
        ConsoleSession session = new ConsoleSession(app);
        HttpResponse<String> login = session.signIn(user, RunningApp.PASSWORD);
        if (login.statusCode() != 302 || login.headers().firstValue("Location").orElse("").contains("error")) {
            throw new IllegalStateException("could not sign in as " + user + ": " + login.statusCode() + " " + login.headers().map());
        }
        return session;
    }

    HttpResponse<String> signIn(String user, String password) throws Exception {
        String token = csrfToken(get("/login").body());
        return post("/login", Map.of("username", user, "password", password, "_csrf", token));
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, String header, String value) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header(header, value).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form POST with exactly these fields (no token unless given). */
    HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
        String body = form.entrySet().stream().map(field -> URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form POST carrying the CSRF token of the page at {@code tokenFrom}, as the page's own form would. */
    HttpResponse<String> postWithToken(String tokenFrom, String path, Map<String, String> fields) throws Exception {
        Map<String, String> form = new LinkedHashMap<>(fields);
        form.put("_csrf", csrfToken(get(tokenFrom).body()));
        return post(path, form);
    }

    Optional<String> cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals(name)).map(HttpCookie::getValue)
                .findFirst();
    }

    void setCookie(String name, String value) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath("/");
        cookie.setVersion(0);
        cookies.getCookieStore().add(URI.create(base), cookie);
    }

    static String csrfToken(String html) {
        Matcher matcher = CSRF.matcher(html);
        if (!matcher.find()) {
            throw new IllegalStateException("no CSRF token on the page: " + html.substring(0, Math.min(500, html.length())));
        }
        return matcher.group(1);
    }
}
