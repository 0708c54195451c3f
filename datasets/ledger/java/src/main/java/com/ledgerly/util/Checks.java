package com.ledgerly.util;

/** Argument checks and account-code arithmetic. */
public final class Checks {

    private Checks() {
    }

    public static String requireNonEmpty(String value, String name) {
        if (Text.isBlank(value)) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
        return value.trim();
    }

    public static int requirePositive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
        return value;
    }

    /** Luhn check digit for a string of decimal digits. */
    public static int luhnDigit(String digits) {
        int sum = 0;
        boolean doubleIt = true;
        for (int i = digits.length() - 1; i >= 0; i--) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not a digit: '" + c + "'");
            }
            int d = c - '0';
            if (doubleIt) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubleIt = !doubleIt;
        }
        return (10 - sum % 10) % 10;
    }

    /** A valid account code is four digits whose first digit is 1 to 5. */
    public static boolean isValidAccountCode(String code) {
        if (code == null || code.length() != 4) {
            return false;
        }
        for (int i = 0; i < code.length(); i++) {
            if (!Character.isDigit(code.charAt(i))) {
                return false;
            }
        }
        int head = code.charAt(0) - '0';
        return head >= 1 && head <= 5;
    }
}
