package com.ledgerly.report;

/** Formatting of cent amounts for reports. */
public final class Amounts {

    private Amounts() {
    }

    /** Digits of a non-negative number with ',' between groups of three: 1234567 -> "1,234,567". */
    public static String groupThousands(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("value must not be negative: " + value);
        }
        String digits = Long.toString(value);
        StringBuilder sb = new StringBuilder();
        int lead = digits.length() % 3;
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (i - lead) % 3 == 0) {
                sb.append(',');
            }
            sb.append(digits.charAt(i));
        }
        return sb.toString();
    }

    public static String format(long cents, AmountStyle style) {
        long abs = Math.abs(cents);
        long frac = abs % 100;
        String fraction = (frac < 10 ? "0" : "") + frac;
        switch (style) {
            case PLAIN:
                return (cents < 0 ? "-" : "") + (abs / 100) + "." + fraction;
            case ACCOUNTING: {
                String body = groupThousands(abs / 100) + "." + fraction;
                return cents < 0 ? "(" + body + ")" : body;
            }
            case SIGNED:
                return (cents < 0 ? "-" : "+") + groupThousands(abs / 100) + "." + fraction;
            default:
                throw new IllegalArgumentException("unknown style: " + style);
        }
    }

    /** Parses a style name case-insensitively ("accounting", "Plain"). */
    public static AmountStyle parseStyle(String name) {
        try {
            return AmountStyle.valueOf(name.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown amount style: " + name, e);
        }
    }
}
