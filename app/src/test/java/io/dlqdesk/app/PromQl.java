package io.dlqdesk.app;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects, read by a tokenizer and a small checker of PromQL's shape (no PromQL
 * parser for Java is served by Maven Central here). It knows PromQL's functions, aggregations and keywords, label
 * matchers (their names and values are no metric names, except {@code __name__="…"}), durations in ranges, subqueries
 * and {@code offset}, grouping and vector-matching label lists, string and number literals, comments, and Grafana's
 * {@code $__rate_interval}-style variables; an unknown function, two operands in a row, a missing operand, an unclosed
 * bracket or a malformed duration is an error, so a typo cannot hide as a "metric name".
 */
final class PromQl {

    static final Set<String> FUNCTIONS = Set.of("abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh",
            "avg_over_time", "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh", "count_over_time", "days_in_month",
            "day_of_month", "day_of_week", "day_of_year", "deg", "delta", "deriv", "double_exponential_smoothing", "exp", "floor",
            "histogram_avg", "histogram_count", "histogram_fraction", "histogram_quantile", "histogram_stddev", "histogram_stdvar",
            "histogram_sum", "holt_winters", "hour", "idelta", "increase", "irate", "label_join", "label_replace", "last_over_time", "ln",
            "log10", "log2", "mad_over_time", "max_over_time", "min_over_time", "minute", "month", "pi", "predict_linear",
            "present_over_time", "quantile_over_time", "rad", "rate", "resets", "round", "scalar", "sgn", "sin", "sinh", "sort",
            "sort_by_label", "sort_by_label_desc", "sort_desc", "sqrt", "stddev_over_time", "stdvar_over_time", "sum_over_time", "tan",
            "tanh", "time", "timestamp", "vector", "year");
    static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values",
            "bottomk", "topk", "quantile", "limitk", "limit_ratio");
    private static final Set<String> SET_OPERATORS = Set.of("and", "or", "unless", "atan2");
    private static final Set<String> GROUPINGS = Set.of("by", "without");
    private static final Set<String> MATCHINGS = Set.of("on", "ignoring");
    private static final Set<String> GROUP_SIDES = Set.of("group_left", "group_right");
    private static final Set<String> BINARY = Set.of("+", "-", "*", "/", "%", "^", "==", "!=", "<", ">", "<=", ">=");
    private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", ">", "<=", ">=");
    private static final Set<String> MATCHERS = Set.of("=", "!=", "=~", "!~");
    private static final Pattern DURATION = Pattern.compile("(?:[0-9]+(?:ms|s|m|h|d|w|y))+");
    private static final Pattern GRAFANA_RANGE = Pattern.compile("\\$(?:__rate_interval|__interval|__range|\\{__rate_interval}|\\{__interval}|\\{__range})");

    enum Kind { IDENT, NUMBER, DURATION, STRING, VARIABLE, SYMBOL, END }

    record Token(Kind kind, String text, int at) {
    }

    private final String expr;
    private final List<Token> tokens;
    private int next;
    private final Set<String> metrics = new LinkedHashSet<>();

    private PromQl(String expr) {
        this.expr = expr;
        this.tokens = tokenize(expr);
    }

    /** The metric names {@code expr} selects; an expression that is not PromQL is an {@link IllegalArgumentException} saying where. */
    static Set<String> metricNames(String expr) {
        PromQl query = new PromQl(expr);
        query.expression();
        query.expect(Kind.END, null);
        if (query.metrics.isEmpty()) {
            throw new IllegalArgumentException("selects no metric: " + expr);
        }
        return query.metrics;
    }

    // expression := operand (binary-operator modifiers operand)*
    private void expression() {
        operand();
        while (true) {
            Token token = peek();
            String op = token.kind() == Kind.SYMBOL && BINARY.contains(token.text()) ? token.text()
                    : token.kind() == Kind.IDENT && SET_OPERATORS.contains(token.text().toLowerCase(Locale.ROOT)) ? token.text() : null;
            if (op == null) {
                return;
            }
            next++;
            if (COMPARISONS.contains(op) && isIdent(peek(), "bool")) {
                next++;
            }
            if (peek().kind() == Kind.IDENT && MATCHINGS.contains(peek().text())) {
                next++;
                labelList();
                if (peek().kind() == Kind.IDENT && GROUP_SIDES.contains(peek().text())) {
                    next++;
                    if (isSymbol(peek(), "(")) {
                        labelList();
                    }
                }
            }
            operand();
        }
    }

    // operand := unary* primary postfix*
    private void operand() {
        while (isSymbol(peek(), "-") || isSymbol(peek(), "+")) {
            next++;
        }
        Token token = take();
        switch (token.kind()) {
            case NUMBER, STRING -> { }
            case SYMBOL -> {
                if (token.text().equals("(")) {
                    expression();
                    expect(Kind.SYMBOL, ")");
                } else if (token.text().equals("{")) {
                    matchers(true);
                } else {
                    throw error(token, "an operand (a metric, number, function or '(')");
                }
            }
            case IDENT -> identifier(token);
            default -> throw error(token, "an operand (a metric, number, function or '(')");
        }
        postfix();
    }

    private void identifier(Token token) {
        String name = token.text();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("inf") || lower.equals("nan")) {
            return;
        }
        if (AGGREGATIONS.contains(name) && (isSymbol(peek(), "(") || peek().kind() == Kind.IDENT && GROUPINGS.contains(peek().text()))) {
            if (peek().kind() == Kind.IDENT) { // sum by (a) (…)
                next++;
                labelList();
            }
            arguments();
            if (peek().kind() == Kind.IDENT && GROUPINGS.contains(peek().text())) { // sum (…) by (a)
                next++;
                labelList();
            }
            return;
        }
        if (isSymbol(peek(), "(")) {
            if (!FUNCTIONS.contains(name)) {
                throw new IllegalArgumentException("unknown function '" + name + "' at " + token.at() + " in: " + expr);
            }
            arguments();
            return;
        }
        if (FUNCTIONS.contains(name) || AGGREGATIONS.contains(name) || SET_OPERATORS.contains(lower) || GROUPINGS.contains(name)
                || MATCHINGS.contains(name) || GROUP_SIDES.contains(name) || name.equals("bool") || name.equals("offset")) {
            throw new IllegalArgumentException("'" + name + "' at " + token.at() + " is a PromQL word, not a metric, in: " + expr);
        }
        metrics.add(name);
        if (isSymbol(peek(), "{")) {
            next++;
            matchers(false);
        }
    }

    private void arguments() {
        expect(Kind.SYMBOL, "(");
        if (isSymbol(peek(), ")")) {
            next++;
            return;
        }
        expression();
        while (isSymbol(peek(), ",")) {
            next++;
            expression();
        }
        expect(Kind.SYMBOL, ")");
    }

    /** After '{': name op "value" pairs, or a quoted metric name; {@code __name__="x"} selects metric x. */
    private void matchers(boolean nameless) {
        boolean any = false;
        while (!isSymbol(peek(), "}")) {
            Token label = take();
            if (label.kind() == Kind.STRING && (isSymbol(peek(), ",") || isSymbol(peek(), "}"))) {
                metrics.add(unquote(label.text()));
            } else {
                if (label.kind() != Kind.IDENT && label.kind() != Kind.STRING) {
                    throw error(label, "a label name");
                }
                Token op = take();
                if (op.kind() != Kind.SYMBOL || !MATCHERS.contains(op.text())) {
                    throw error(op, "a label matcher (=, !=, =~, !~)");
                }
                Token value = expect(Kind.STRING, null);
                if (unquote(label.text()).equals("__name__") && op.text().equals("=")) {
                    metrics.add(unquote(value.text()));
                }
            }
            any = true;
            if (!isSymbol(peek(), "}")) {
                expect(Kind.SYMBOL, ",");
            }
        }
        next++;
        if (nameless && !any) {
            throw new IllegalArgumentException("an empty selector {} selects nothing, in: " + expr);
        }
    }

    /** Range, subquery, offset and @ after an operand. */
    private void postfix() {
        while (true) {
            if (isSymbol(peek(), "[")) {
                next++;
                range();
                if (isSymbol(peek(), ":")) {
                    next++;
                    if (!isSymbol(peek(), "]")) {
                        range();
                    }
                }
                expect(Kind.SYMBOL, "]");
            } else if (isIdent(peek(), "offset")) {
                next++;
                if (isSymbol(peek(), "-")) {
                    next++;
                }
                range();
            } else if (isSymbol(peek(), "@")) {
                next++;
                Token at = take();
                if (at.kind() == Kind.IDENT && (at.text().equals("start") || at.text().equals("end"))) {
                    expect(Kind.SYMBOL, "(");
                    expect(Kind.SYMBOL, ")");
                } else if (at.kind() != Kind.NUMBER) {
                    throw error(at, "a time after @");
                }
            } else {
                return;
            }
        }
    }

    private void range() {
        Token duration = take();
        if (duration.kind() != Kind.DURATION && !(duration.kind() == Kind.VARIABLE && GRAFANA_RANGE.matcher(duration.text()).matches())) {
            throw error(duration, "a duration (5m, 1h30m, $__rate_interval)");
        }
    }

    private void labelList() {
        expect(Kind.SYMBOL, "(");
        while (!isSymbol(peek(), ")")) {
            Token label = take();
            if (label.kind() != Kind.IDENT && label.kind() != Kind.STRING) {
                throw error(label, "a label name");
            }
            if (!isSymbol(peek(), ")")) {
                expect(Kind.SYMBOL, ",");
            }
        }
        next++;
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    private Token expect(Kind kind, String text) {
        Token token = take();
        if (token.kind() != kind || text != null && !text.equals(token.text())) {
            throw error(token, text != null ? "'" + text + "'" : kind.name().toLowerCase(Locale.ROOT));
        }
        return token;
    }

    private IllegalArgumentException error(Token token, String wanted) {
        return new IllegalArgumentException("expected " + wanted + " at " + token.at() + " but found "
                + (token.kind() == Kind.END ? "the end" : "'" + token.text() + "'") + " in: " + expr);
    }

    private static boolean isSymbol(Token token, String text) {
        return token.kind() == Kind.SYMBOL && token.text().equals(text);
    }

    private static boolean isIdent(Token token, String text) {
        return token.kind() == Kind.IDENT && token.text().equals(text);
    }

    private static String unquote(String text) {
        if (text.length() >= 2 && (text.charAt(0) == '"' || text.charAt(0) == '\'' || text.charAt(0) == '`')) {
            return text.substring(1, text.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        return text;
    }

    private static List<Token> tokenize(String expr) {
        List<Token> tokens = new ArrayList<>();
        Deque<Character> open = new ArrayDeque<>();
        int i = 0;
        while (i < expr.length()) {
            char c = expr.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                while (i < expr.length() && expr.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'' || c == '`') {
                i++;
                while (i < expr.length() && expr.charAt(i) != c) {
                    i += expr.charAt(i) == '\\' && c != '`' ? 2 : 1;
                }
                if (i >= expr.length()) {
                    throw new IllegalArgumentException("unterminated string at " + start + " in: " + expr);
                }
                i++;
                tokens.add(new Token(Kind.STRING, expr.substring(start, i), start));
            } else if (Character.isDigit(c) || c == '.' && i + 1 < expr.length() && Character.isDigit(expr.charAt(i + 1))) {
                while (i < expr.length() && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.'
                        || (expr.charAt(i) == '+' || expr.charAt(i) == '-') && (expr.charAt(i - 1) == 'e' || expr.charAt(i - 1) == 'E')
                        && !expr.substring(start, i).startsWith("0x"))) {
                    i++;
                }
                String text = expr.substring(start, i);
                if (DURATION.matcher(text).matches()) {
                    tokens.add(new Token(Kind.DURATION, text, start));
                } else if (text.matches("0[xX][0-9a-fA-F]+|[0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\\.")) {
                    tokens.add(new Token(Kind.NUMBER, text, start));
                } else {
                    throw new IllegalArgumentException("'" + text + "' at " + start + " is neither a number nor a duration in: " + expr);
                }
            } else if (Character.isLetter(c) || c == '_') { // a leading ':' is a subquery's separator ([1h:5m]), never a name here
                while (i < expr.length() && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_' || expr.charAt(i) == ':')) {
                    i++;
                }
                tokens.add(new Token(Kind.IDENT, expr.substring(start, i), start));
            } else if (c == '$') {
                i++;
                if (i < expr.length() && expr.charAt(i) == '{') {
                    while (i < expr.length() && expr.charAt(i) != '}') {
                        i++;
                    }
                    i++;
                } else {
                    while (i < expr.length() && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_')) {
                        i++;
                    }
                }
                tokens.add(new Token(Kind.VARIABLE, expr.substring(start, Math.min(i, expr.length())), start));
            } else {
                String two = i + 1 < expr.length() ? expr.substring(i, i + 2) : "";
                String symbol = Set.of("==", "!=", "<=", ">=", "=~", "!~").contains(two) ? two : String.valueOf(c);
                if (!Set.of("(", ")", "{", "}", "[", "]", ",", ":", "@", "+", "-", "*", "/", "%", "^", "<", ">", "=", "==", "!=", "<=", ">=",
                        "=~", "!~").contains(symbol)) {
                    throw new IllegalArgumentException("unexpected '" + symbol + "' at " + start + " in: " + expr);
                }
                switch (symbol) {
                    case "(", "{", "[" -> open.push(symbol.charAt(0));
                    case ")", "}", "]" -> {
                        char expected = symbol.equals(")") ? '(' : symbol.equals("}") ? '{' : '[';
                        if (open.isEmpty() || open.pop() != expected) {
                            throw new IllegalArgumentException("unbalanced '" + symbol + "' at " + start + " in: " + expr);
                        }
                    }
                    default -> { }
                }
                i += symbol.length();
                tokens.add(new Token(Kind.SYMBOL, symbol, start));
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("unclosed '" + open.peek() + "' in: " + expr);
        }
        tokens.add(new Token(Kind.END, "", expr.length()));
        return tokens;
    }
}
