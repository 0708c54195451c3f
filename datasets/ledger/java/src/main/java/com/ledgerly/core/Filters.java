package com.ledgerly.core;

import java.util.ArrayList;
import java.util.List;

/** Factories and combinators for {@link Filter}. */
public final class Filters {

    private Filters() {
    }

    public static <T> Filter<T> and(Filter<T> left, Filter<T> right) {
        return value -> left.accepts(value) && right.accepts(value);
    }

    public static <T> Filter<T> not(Filter<T> inner) {
        return value -> !inner.accepts(value);
    }

    public static <T> List<T> apply(List<T> items, Filter<T> filter) {
        List<T> kept = new ArrayList<>();
        for (T item : items) {
            if (filter.accepts(item)) {
                kept.add(item);
            }
        }
        return kept;
    }

    /** Transactions dated from (inclusive) to (inclusive). */
    public static Filter<Transaction> dateBetween(LedgerDate from, LedgerDate to) {
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("empty date range: " + from + " .. " + to);
        }
        return tx -> !tx.getDate().isBefore(from) && !to.isBefore(tx.getDate());
    }

    public static Filter<Transaction> involving(String accountCode) {
        return tx -> tx.involves(accountCode);
    }

    /** Case-insensitive substring match on the description. */
    public static Filter<Transaction> descriptionContains(String fragment) {
        String needle = fragment.toLowerCase();
        return tx -> tx.getDescription().toLowerCase().contains(needle);
    }
}
