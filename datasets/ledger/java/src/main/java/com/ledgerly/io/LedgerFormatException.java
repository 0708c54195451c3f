package com.ledgerly.io;

import com.ledgerly.core.LedgerException;

/** Malformed journal text; carries the 1-based line number. */
public class LedgerFormatException extends LedgerException {
    private final int lineNumber;

    public LedgerFormatException(int lineNumber, String message) {
        super("line " + lineNumber + ": " + message);
        this.lineNumber = lineNumber;
    }

    public LedgerFormatException(int lineNumber, String message, Throwable cause) {
        super("line " + lineNumber + ": " + message, cause);
        this.lineNumber = lineNumber;
    }

    public int getLineNumber() {
        return lineNumber;
    }
}
