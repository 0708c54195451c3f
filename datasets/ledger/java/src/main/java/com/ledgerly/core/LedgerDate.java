package com.ledgerly.core;

/** A calendar date (proleptic Gregorian, years 1 to 9999) without time of day. */
public final class LedgerDate implements Comparable<LedgerDate> {
    private final int year;
    private final int month;
    private final int day;

    public LedgerDate(int year, int month, int day) {
        if (year < 1 || year > 9999) {
            throw new IllegalArgumentException("year out of range: " + year);
        }
        if (month < 1 || month > 12) {
            throw new IllegalArgumentException("month out of range: " + month);
        }
        if (day < 1 || day > daysInMonth(year, month)) {
            throw new IllegalArgumentException("day out of range: " + year + "-" + month + "-" + day);
        }
        this.year = year;
        this.month = month;
        this.day = day;
    }

    /** Parses an ISO date "yyyy-MM-dd". */
    public static LedgerDate parse(String text) {
        String s = text.trim();
        if (s.length() != 10 || s.charAt(4) != '-' || s.charAt(7) != '-') {
            throw new IllegalArgumentException("expected yyyy-MM-dd: " + text);
        }
        int[] parts = new int[3];
        int[][] ranges = {{0, 4}, {5, 7}, {8, 10}};
        for (int p = 0; p < 3; p++) {
            int value = 0;
            for (int i = ranges[p][0]; i < ranges[p][1]; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    throw new IllegalArgumentException("expected yyyy-MM-dd: " + text);
                }
                value = value * 10 + (c - '0');
            }
            parts[p] = value;
        }
        return new LedgerDate(parts[0], parts[1], parts[2]);
    }

    public static boolean isLeapYear(int year) {
        return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    }

    public static int daysInMonth(int year, int month) {
        switch (month) {
            case 2:
                return isLeapYear(year) ? 29 : 28;
            case 4:
            case 6:
            case 9:
            case 11:
                return 30;
            default:
                return 31;
        }
    }

    /** The date that is epochDay days after 1970-01-01. */
    public static LedgerDate fromEpochDay(long epochDay) {
        long z = epochDay + 719468;
        long era = (z >= 0 ? z : z - 146096) / 146097;
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 3 : mp - 9);
        int y = (int) (yoe + era * 400 + (m <= 2 ? 1 : 0));
        return new LedgerDate(y, m, d);
    }

    public int getYear() {
        return year;
    }

    public int getMonth() {
        return month;
    }

    public int getDay() {
        return day;
    }

    /** Days since 1970-01-01. */
    public long toEpochDay() {
        long y = month <= 2 ? year - 1 : year;
        long era = (y >= 0 ? y : y - 399) / 400;
        long yoe = y - era * 400;
        long doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** ISO day of week: 1 = Monday ... 7 = Sunday. */
    public int dayOfWeek() {
        long shifted = (toEpochDay() + 3) % 7;
        if (shifted < 0) {
            shifted += 7;
        }
        return (int) shifted + 1;
    }

    public LedgerDate plusDays(int days) {
        return fromEpochDay(toEpochDay() + days);
    }

    public long daysUntil(LedgerDate other) {
        return other.toEpochDay() - toEpochDay();
    }

    public LedgerDate endOfMonth() {
        return new LedgerDate(year, month, daysInMonth(year, month));
    }

    public boolean isBefore(LedgerDate other) {
        return compareTo(other) < 0;
    }

    @Override
    public int compareTo(LedgerDate other) {
        if (year != other.year) {
            return Integer.compare(year, other.year);
        }
        if (month != other.month) {
            return Integer.compare(month, other.month);
        }
        return Integer.compare(day, other.day);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof LedgerDate)) {
            return false;
        }
        LedgerDate that = (LedgerDate) other;
        return year == that.year && month == that.month && day == that.day;
    }

    @Override
    public int hashCode() {
        return (year * 12 + month) * 31 + day;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(10);
        String y = Integer.toString(year);
        for (int i = y.length(); i < 4; i++) {
            sb.append('0');
        }
        sb.append(y).append('-');
        if (month < 10) {
            sb.append('0');
        }
        sb.append(month).append('-');
        if (day < 10) {
            sb.append('0');
        }
        sb.append(day);
        return sb.toString();
    }
}
