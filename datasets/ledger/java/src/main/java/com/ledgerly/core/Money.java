package com.ledgerly.core;

import java.util.ArrayList;
import java.util.List;

/** An amount of money held as a whole number of cents in one currency. */
public final class Money implements Comparable<Money> {
    private final long cents;
    private final String currency;

    public Money(long cents, String currency) {
        if (currency == null || currency.length() != 3) {
            throw new IllegalArgumentException("currency must be a 3-letter code: " + currency);
        }
        for (int i = 0; i < 3; i++) {
            char c = currency.charAt(i);
            if (c < 'A' || c > 'Z') {
                throw new IllegalArgumentException("currency must be upper-case letters: " + currency);
            }
        }
        this.cents = cents;
        this.currency = currency;
    }

    public static Money zero(String currency) {
        return new Money(0, currency);
    }

    public static Money of(String currency, long units, int cents) {
        if (cents < 0 || cents > 99) {
            throw new IllegalArgumentException("cents out of range: " + cents);
        }
        long total = Math.abs(units) * 100 + cents;
        return new Money(units < 0 ? -total : total, currency);
    }

    /** Parses a decimal amount such as "-12.5" or "1,234.07" into cents. */
    public static long parseCents(String text) {
        String s = text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty amount");
        }
        boolean negative = false;
        int i = 0;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        long units = 0;
        long fraction = 0;
        int fractionDigits = 0;
        boolean inFraction = false;
        boolean sawDigit = false;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' && !inFraction) {
                continue;
            }
            if (c == '.' && !inFraction) {
                inFraction = true;
                continue;
            }
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("bad character '" + c + "' in amount: " + text);
            }
            sawDigit = true;
            if (inFraction) {
                if (fractionDigits == 2) {
                    throw new IllegalArgumentException("more than two decimals in amount: " + text);
                }
                fraction = fraction * 10 + (c - '0');
                fractionDigits++;
            } else {
                units = units * 10 + (c - '0');
            }
        }
        if (!sawDigit) {
            throw new IllegalArgumentException("no digits in amount: " + text);
        }
        if (fractionDigits == 1) {
            fraction *= 10;
        }
        long total = units * 100 + fraction;
        return negative ? -total : total;
    }

    /** Parses "USD 12.34" (currency, one space, decimal amount). */
    public static Money parse(String text) {
        int space = text.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("expected '<CUR> <amount>': " + text);
        }
        return new Money(parseCents(text.substring(space + 1)), text.substring(0, space));
    }

    public long getCents() {
        return cents;
    }

    public String getCurrency() {
        return currency;
    }

    public boolean isZero() {
        return cents == 0;
    }

    public boolean isNegative() {
        return cents < 0;
    }

    public void requireSameCurrency(Money other) {
        if (!currency.equals(other.currency)) {
            throw new CurrencyMismatchException(currency, other.currency);
        }
    }

    public Money add(Money other) {
        requireSameCurrency(other);
        return new Money(cents + other.cents, currency);
    }

    public Money subtract(Money other) {
        requireSameCurrency(other);
        return new Money(cents - other.cents, currency);
    }

    public Money negate() {
        return new Money(-cents, currency);
    }

    public Money abs() {
        return cents < 0 ? negate() : this;
    }

    public Money multiply(int factor) {
        return new Money(cents * factor, currency);
    }

    /** Multiplies by a rate and rounds half away from zero to whole cents. */
    public Money multiply(double rate) {
        double exact = cents * rate;
        long rounded = exact < 0 ? -Math.round(-exact) : Math.round(exact);
        return new Money(rounded, currency);
    }

    /** Splits into parts as even as possible; the first (remainder) parts get one extra cent. */
    public List<Money> allocate(int parts) {
        if (parts <= 0) {
            throw new IllegalArgumentException("parts must be positive: " + parts);
        }
        long base = cents / parts;
        long remainder = cents % parts;
        long step = remainder < 0 ? -1 : 1;
        List<Money> result = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            long share = base;
            if (i < Math.abs(remainder)) {
                share += step;
            }
            result.add(new Money(share, currency));
        }
        return result;
    }

    /** The amount without currency: "-1234.05". */
    public String toPlainString() {
        long abs = Math.abs(cents);
        long frac = abs % 100;
        StringBuilder sb = new StringBuilder();
        if (cents < 0) {
            sb.append('-');
        }
        sb.append(abs / 100).append('.');
        if (frac < 10) {
            sb.append('0');
        }
        sb.append(frac);
        return sb.toString();
    }

    @Override
    public int compareTo(Money other) {
        requireSameCurrency(other);
        return Long.compare(cents, other.cents);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Money)) {
            return false;
        }
        Money that = (Money) other;
        return cents == that.cents && currency.equals(that.currency);
    }

    @Override
    public int hashCode() {
        return 31 * currency.hashCode() + (int) (cents ^ (cents >>> 32));
    }

    @Override
    public String toString() {
        return currency + " " + toPlainString();
    }
}
