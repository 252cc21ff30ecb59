package io.dlqdesk.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What README.md and docs/*.md say that a test can check, read by the convention of docs/README.md: the curl examples of
 * their {@code bash} blocks with the status each documents, the service paths they name, and their relative links.
 */
final class DocumentedExamples {

    /** The local run's address as the pages write it. */
    static final String LOCAL_RUN = "http://127.0.0.1:8080";

    private static final Pattern STATUS = Pattern.compile("#\\s*(\\d{3}(?:/\\d{3})*)\\b");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Z][A-Z0-9_]*)=(\\S*)");
    private static final Pattern PATH = Pattern.compile(
            "(?:\\b(GET|POST|PUT|DELETE|HEAD) )?(/(?:api/v1|console|actuator|v3/api-docs|swagger-ui|login|logout)(?:[./][^\\s`'\"?#)\\],;]*)?)(?![\\w-])");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#+\\s+(.*)$", Pattern.MULTILINE);

    private DocumentedExamples() {
    }

    /** A page: README.md or one of docs/*.md, with its name in the repository. */
    record Page(Path file, String name, String text) {
    }

    /** A curl command as written (its lines joined), where it starts, and the statuses its comment documents (empty: none). */
    record Example(Page page, int line, String command, Set<Integer> expected) {
        String where() {
            return page.name() + ":" + line;
        }
    }

    /** A fenced bash block: its curl examples and its {@code NAME=value} lines, in order. */
    record Block(Page page, int line, List<Object> steps) {
        boolean uses(String variable) {
            return steps.stream().anyMatch(step -> step instanceof Example example
                    && (example.command().contains("$" + variable) || example.command().contains("${" + variable + "}")));
        }
    }

    /** A {@code NAME=value} line of a block. */
    record Assignment(String name, String value) {
    }

    /** A service path the text names, with the method written before it (or null). */
    record NamedPath(Page page, String method, String path) {
    }

    /** README.md first, then docs/*.md by name: the order the blocks run in. */
    static List<Page> pages(Path root) {
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files.stream().map(file -> page(root, file)).toList();
    }

    static Page page(Path root, Path file) {
        try {
            return new Page(file.normalize(), root.relativize(file).normalize().toString(), Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Block> blocks(Page page) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = page.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].strip().equals("```bash")) {
                continue;
            }
            int start = i + 1;
            List<Object> steps = new ArrayList<>();
            for (i = start; i < lines.length && !lines[i].strip().startsWith("```"); i++) {
                String line = lines[i].strip();
                Matcher assignment = ASSIGNMENT.matcher(line);
                if (line.startsWith("curl ")) {
                    int first = i;
                    StringBuilder command = new StringBuilder(lines[i]);
                    while (incomplete(command.toString()) && i + 1 < lines.length && !lines[i + 1].strip().startsWith("```")) {
                        command.append('\n').append(lines[++i]);
                    }
                    steps.add(new Example(page, first + 1, command.toString().strip(), expected(comment(command.toString()))));
                } else if (assignment.matches()) {
                    steps.add(new Assignment(assignment.group(1), assignment.group(2)));
                }
            }
            blocks.add(new Block(page, start, steps));
        }
        return blocks;
    }

    /** Within an open quote, or its last line (before any comment) ends in a backslash. */
    static boolean incomplete(String command) {
        Scan scan = scan(command);
        return scan.openQuote || scan.code.stripTrailing().endsWith("\\");
    }

    /** The comment that ends the command, outside any quote (empty if none). */
    static String comment(String command) {
        return scan(command).comment;
    }

    private record Scan(boolean openQuote, String code, String comment) {
    }

    /** Bash's quoting, enough for these pages: '…' literal, "…" with backslash escapes, # starts a comment after a blank. */
    private static Scan scan(String command) {
        char quote = 0;
        int lineStart = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c == '\n') {
                lineStart = i + 1;
            }
            if (quote == '\'') {
                quote = c == '\'' ? 0 : quote;
            } else if (quote == '"') {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\') {
                i++;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(command.charAt(i - 1)))) {
                return new Scan(false, command.substring(lineStart, i), command.substring(i));
            }
        }
        return new Scan(quote != 0, command.substring(lineStart), "");
    }

    private static Set<Integer> expected(String comment) {
        Matcher status = STATUS.matcher(comment);
        Set<Integer> expected = new LinkedHashSet<>();
        if (status.lookingAt()) {
            for (String code : status.group(1).split("/")) {
                expected.add(Integer.parseInt(code));
            }
        }
        return expected;
    }

    /** Every service path the page names, anywhere in it (prose, tables, code), without its query. */
    static List<NamedPath> paths(Page page) {
        List<NamedPath> paths = new ArrayList<>();
        Matcher matcher = PATH.matcher(page.text());
        while (matcher.find()) {
            String path = matcher.group(2).replaceAll("[.:]+$", "");
            if (path.endsWith(">") && !path.contains("<")) {
                path = path.substring(0, path.length() - 1); // an autolink's end: <http://…/console>
            }
            if (!path.endsWith(".md")) { // docs/console.md is a page, not a path of the service
                paths.add(new NamedPath(page, matcher.group(1), path));
            }
        }
        return paths;
    }

    /**
     * A path as a concrete one, each alternative on its own: a segment that stands for a value ({id}, $ID, inc-…, <id>)
     * becomes "x"; "pause|resume|cancel" becomes three paths. A last segment "**" or "…" (anything below) is kept as "**".
     */
    static List<String> concrete(String path) {
        List<String> paths = List.of("");
        for (String segment : path.substring(1).replace("\\", "").split("/", -1)) {
            List<String> choices = segment.equals("**") || segment.equals("…") ? List.of("**")
                    : segment.matches(".*[{}$<>…].*") ? List.of("x")
                    : List.of(segment.split("\\|"));
            List<String> next = new ArrayList<>();
            for (String prefix : paths) {
                for (String choice : choices) {
                    next.add(prefix + "/" + choice);
                }
            }
            paths = next;
        }
        return paths;
    }

    /** Relative link targets outside code blocks (images included); absolute URLs are not ours to check. */
    static List<String> relativeLinks(Page page) {
        List<String> links = new ArrayList<>();
        Matcher matcher = LINK.matcher(withoutCode(page.text()));
        while (matcher.find()) {
            String target = matcher.group(1);
            if (!target.matches("[a-z][a-z0-9+.-]*:.*")) {
                links.add(target);
            }
        }
        return links;
    }

    /** The anchors GitHub gives the page's headings: lower case, punctuation dropped, blanks as hyphens. */
    static Set<String> anchors(Page page) {
        Set<String> anchors = new LinkedHashSet<>();
        Matcher matcher = HEADING.matcher(withoutCode(page.text()));
        while (matcher.find()) {
            anchors.add(matcher.group(1).strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
        }
        return anchors;
    }

    private static String withoutCode(String text) {
        return text.replaceAll("(?s)```.*?```", "");
    }
}
