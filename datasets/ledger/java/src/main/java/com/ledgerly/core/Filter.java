package com.ledgerly.core;

/** A yes/no test on a value. */
public interface Filter<T> {
    boolean accepts(T value);
}
