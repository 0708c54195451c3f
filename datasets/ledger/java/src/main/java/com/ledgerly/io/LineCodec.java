package com.ledgerly.io;

/** Converts a value to one line of text and back. */
public interface LineCodec<T> {
    String encode(T value);

    T decode(String line);
}
