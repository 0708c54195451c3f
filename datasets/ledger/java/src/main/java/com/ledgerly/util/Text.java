package com.ledgerly.util;

import java.util.ArrayList;
import java.util.List;

/** String helpers used by the readers, writers and reports. */
public final class Text {

    private Text() {
    }

    public static String repeat(char c, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        StringBuilder sb = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            sb.append(c);
        }
        return sb.toString();
    }

    public static String padLeft(String value, int width, char fill) {
        if (value.length() >= width) {
            return value;
        }
        return repeat(fill, width - value.length()) + value;
    }

    public static String padRight(String value, int width, char fill) {
        if (value.length() >= width) {
            return value;
        }
        return value + repeat(fill, width - value.length());
    }

    public static boolean isBlank(String value) {
        if (value == null) {
            return true;
        }
        for (int i = 0; i < value.length(); i++) {
            if (!Character.isWhitespace(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Splits one CSV line; fields may be quoted and a doubled quote inside quotes is a literal quote. */
    public static List<String> splitCsv(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        current.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    current.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
            i++;
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quote in: " + line);
        }
        fields.add(current.toString());
        return fields;
    }

    public static String escapeCsv(String field) {
        boolean needsQuotes = field.indexOf(',') >= 0 || field.indexOf('"') >= 0
                || field.indexOf('\n') >= 0;
        if (!needsQuotes) {
            return field;
        }
        return "\"" + field.replace("\"", "\"\"") + "\"";
    }

    /** Lower-case ASCII slug: letters and digits kept, every other run becomes one '-'. */
    public static String slug(String value) {
        StringBuilder sb = new StringBuilder();
        boolean pendingDash = false;
        for (char c : value.toCharArray()) {
            char lower = c;
            if (c >= 'A' && c <= 'Z') {
                lower = (char) (c - 'A' + 'a');
            }
            boolean keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
            if (keep) {
                if (pendingDash && sb.length() > 0) {
                    sb.append('-');
                }
                sb.append(lower);
                pendingDash = false;
            } else {
                pendingDash = true;
            }
        }
        return sb.toString();
    }
}
