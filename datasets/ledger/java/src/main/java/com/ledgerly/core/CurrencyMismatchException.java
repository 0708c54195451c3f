package com.ledgerly.core;

/** Arithmetic between amounts of two different currencies. */
public class CurrencyMismatchException extends LedgerException {

    public CurrencyMismatchException(String expected, String actual) {
        super("currency mismatch: expected " + expected + " but got " + actual);
    }
}
