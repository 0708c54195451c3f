package org.acme.util;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Small string helpers.
 */
public final class StringUtils {

    private StringUtils() {
    }

    /** True for null, empty, or whitespace-only text. */
    public static boolean isBlank(String text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    public static String repeat(String text, int times) {
        Preconditions.checkArgument(times >= 0, "times must not be negative: " + times);
        StringBuilder sb = new StringBuilder(text.length() * times);
        for (int i = 0; i < times; i++) {
            sb.append(text);
        }
        return sb.toString();
    }

    /** Left-pads the text with the pad character up to the width; longer text is returned unchanged. */
    public static String padLeft(String text, int width, char pad) {
        if (text.length() >= width) {
            return text;
        }
        StringBuilder sb = new StringBuilder(width);
        for (int i = text.length(); i < width; i++) {
            sb.append(pad);
        }
        return sb.append(text).toString();
    }

    public static String capitalize(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /** Joins the string forms of the parts with the separator. */
    public static String join(String separator, Iterable<?> parts) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Object part : parts) {
            if (!first) {
                sb.append(separator);
            }
            sb.append(part);
            first = false;
        }
        return sb.toString();
    }

    /** "BoundingBox" -> "bounding_box", "parseXML" -> "parse_xml". */
    public static String toSnakeCase(String text) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isUpperCase(c)) {
                boolean previousLower = i > 0 && !Character.isUpperCase(text.charAt(i - 1));
                if (i > 0 && previousLower) {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * Rounds half away from zero to at most maxDecimals places and drops trailing zeros:
     * 2.50 -> "2.5", 3.0 -> "3", -0.0 -> "0".
     */
    public static String formatNumber(double value, int maxDecimals) {
        Preconditions.checkArgument(maxDecimals >= 0, "maxDecimals must not be negative: " + maxDecimals);
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.toString(value);
        }
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(maxDecimals, RoundingMode.HALF_UP);
        if (rounded.signum() == 0) {
            return "0";
        }
        return rounded.stripTrailingZeros().toPlainString();
    }
}
