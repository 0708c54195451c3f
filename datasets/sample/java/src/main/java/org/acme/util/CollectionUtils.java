package org.acme.util;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Generic helpers over collections.
 */
public final class CollectionUtils {

    private CollectionUtils() {
    }

    /** Largest element; the first one wins on ties. */
    public static <T extends Comparable<? super T>> T max(Collection<? extends T> items) {
        Preconditions.checkNotNull(items, "items");
        Iterator<? extends T> it = items.iterator();
        if (!it.hasNext()) {
            throw new NoSuchElementException("max of an empty collection");
        }
        T best = it.next();
        while (it.hasNext()) {
            T candidate = it.next();
            if (candidate.compareTo(best) > 0) {
                best = candidate;
            }
        }
        return best;
    }

    /** Splits the list into consecutive chunks of the given size; the last chunk may be shorter. */
    public static <T> List<List<T>> partition(List<T> items, int size) {
        Preconditions.checkNotNull(items, "items");
        Preconditions.checkArgument(size > 0, "size must be positive: " + size);
        List<List<T>> chunks = new ArrayList<>();
        for (int start = 0; start < items.size(); start += size) {
            int end = Math.min(start + size, items.size());
            chunks.add(new ArrayList<>(items.subList(start, end)));
        }
        return chunks;
    }

    /** A new list with the elements in reverse order. */
    public static <T> List<T> reversed(List<T> items) {
        Preconditions.checkNotNull(items, "items");
        List<T> result = new ArrayList<>(items.size());
        for (int i = items.size() - 1; i >= 0; i--) {
            result.add(items.get(i));
        }
        return result;
    }

    /** Number of elements the predicate accepts. */
    public static <T> int countMatching(Iterable<T> items, Predicate<? super T> predicate) {
        Preconditions.checkNotNull(predicate, "predicate");
        int count = 0;
        for (T item : items) {
            if (predicate.test(item)) {
                count++;
            }
        }
        return count;
    }

    /** Groups the elements by key, keeping first-seen key order and element order. */
    public static <T, K> Map<K, List<T>> groupBy(Iterable<T> items, Function<? super T, ? extends K> keyOf) {
        Map<K, List<T>> groups = new LinkedHashMap<>();
        for (T item : items) {
            K key = keyOf.apply(item);
            List<T> group = groups.get(key);
            if (group == null) {
                group = new ArrayList<>();
                groups.put(key, group);
            }
            group.add(item);
        }
        return groups;
    }

    /** Sum of the values using Kahan compensation. */
    public static double sum(double[] values) {
        double total = 0.0;
        double compensation = 0.0;
        for (double value : values) {
            double y = value - compensation;
            double t = total + y;
            compensation = (t - total) - y;
            total = t;
        }
        return total;
    }
}
