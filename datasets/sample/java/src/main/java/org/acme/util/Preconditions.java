package org.acme.util;

/**
 * Argument checks shared by the whole library.
 */
public final class Preconditions {

    private Preconditions() {
    }

    /** Throws IllegalArgumentException with the given message when the condition is false. */
    public static void checkArgument(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Returns the value, or throws NullPointerException naming the argument when it is null. */
    public static <T> T checkNotNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name + " must not be null");
        }
        return value;
    }

    /** Returns the index when 0 <= index < size. */
    public static int checkIndex(int index, int size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " out of range [0, " + size + ")");
        }
        return index;
    }

    /** Returns the value when it is strictly positive (NaN is rejected). */
    public static double checkPositive(double value, String name) {
        if (!(value > 0.0)) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
        return value;
    }
}
