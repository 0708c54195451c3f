package com.ledgerly.util;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** Generic collection helpers. */
public final class Grouping {

    private Grouping() {
    }

    /** Groups items by key, keeping keys in first-seen order and items in input order. */
    public static <K, V> Map<K, List<V>> groupBy(List<V> items, Function<V, K> key) {
        Map<K, List<V>> groups = new LinkedHashMap<>();
        for (V item : items) {
            K k = key.apply(item);
            List<V> bucket = groups.get(k);
            if (bucket == null) {
                bucket = new ArrayList<>();
                groups.put(k, bucket);
            }
            bucket.add(item);
        }
        return groups;
    }

    public static <T> long sumBy(List<T> items, ToLongFunction<T> value) {
        long total = 0;
        for (T item : items) {
            total += value.applyAsLong(item);
        }
        return total;
    }

    /** Splits a list into consecutive chunks of at most size elements. */
    public static <T> List<List<T>> chunk(List<T> items, int size) {
        Checks.requirePositive(size, "size");
        List<List<T>> chunks = new ArrayList<>();
        for (int start = 0; start < items.size(); start += size) {
            int end = Math.min(start + size, items.size());
            chunks.add(new ArrayList<>(items.subList(start, end)));
        }
        return chunks;
    }
}
