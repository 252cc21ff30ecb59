package io.dlqdesk.logging;

/**
 * Text as a log line may show it: CR and LF as {@code \r} and {@code \n}, the backslash doubled, and every other control
 * character (C0, DEL, C1, the Unicode line and paragraph separators) as {@code \}{@code uXXXX}, so a value from outside can
 * neither end a line nor start a forged one, nor move a terminal's cursor. A tab stays a tab.
 */
public final class LogEscaping {

    private LogEscaping() {
    }

    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int first = firstToEscape(text);
        if (first < 0) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\\' -> escaped.append("\\\\");
                default -> {
                    if (mustEscape(c)) {
                        escaped.append(String.format("\\u%04X", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    private static int firstToEscape(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' || c == '\n' || c == '\r' || mustEscape(c)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean mustEscape(char c) {
        return c != '\t' && Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }
}
