package io.dlqdesk.notifications.delivery;

/**
 * Text from outside (a DLQ record's topic, group, exception message; anything in a notification's summary or facts)
 * made inert for a chat message. Both forms first drop what could forge a line or hide text: control characters and
 * line breaks become spaces, invisible format characters (bidi overrides, zero-width) go; and both are bounded.
 * <ul>
 * <li>Slack: an inline code span. Slack formats, links and mentions nothing inside one, so {@code *bold*},
 * {@code @channel} or a bare URL stay text; its three control characters {@code & < >} are escaped as Slack asks
 * (so {@code <!channel>} or {@code <https://x|y>} can form nowhere), and backticks, which would end the span, become
 * {@code ˋ}.</li>
 * <li>Teams: for an Adaptive Card {@code TextRun}, which Teams renders without markdown; {@code ://} becomes
 * {@code [:]//} so that no client turns a URL from the record into a link, and {@code < >} become {@code ‹ ›}, so that
 * no tag ({@code <at>} of a mention, HTML) is there for any client to read (Adaptive Cards decode no entities to
 * escape them with).</li>
 * </ul>
 */
final class ChatText {

    static final String ELLIPSIS = "…";

    private ChatText() {
    }

    /** {@code `value`}, at most {@code max} characters in all (escapes included: Slack bounds the escaped text). */
    static String slackCode(String value, int max) {
        String text = clean(value).replace('`', 'ˋ');
        if (text.isBlank()) {
            return "` `";
        }
        StringBuilder code = new StringBuilder("`");
        int budget = max - 2 - ELLIPSIS.length();
        for (int i = 0; i < text.length(); ) {
            int point = text.codePointAt(i);
            String escaped = slackEscape(Character.toString(point));
            if (code.length() - 1 + escaped.length() > budget) {
                code.append(ELLIPSIS);
                break;
            }
            code.append(escaped);
            i += Character.charCount(point);
        }
        return code.append('`').toString();
    }

    /** Slack's three control characters, for our own text (titles, fact names, the desk's name). */
    static String slackEscape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** For a Teams {@code TextRun}: one line, at most {@code max} characters, no URL scheme a client would link. */
    static String teamsLiteral(String value, int max) {
        return cut(clean(value).replace("://", "[:]//").replace('<', '‹').replace('>', '›'), max);
    }

    /** Control characters and line breaks as spaces; format characters (bidi, zero-width) dropped. */
    static String clean(String value) {
        StringBuilder clean = new StringBuilder(value.length());
        value.codePoints().forEach(point -> {
            int type = Character.getType(point);
            if (Character.isISOControl(point) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                clean.append(' ');
            } else if (type != Character.FORMAT) {
                clean.appendCodePoint(point);
            }
        });
        return clean.toString();
    }

    /** At most {@code max} characters, never splitting a surrogate pair; a cut one ends in an ellipsis. */
    static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - ELLIPSIS.length();
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + ELLIPSIS;
    }
}
