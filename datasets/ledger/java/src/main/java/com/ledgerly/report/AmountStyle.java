package com.ledgerly.report;

/** How a report prints amounts. */
public enum AmountStyle {
    /** "-1234.50" */
    PLAIN,
    /** "1,234.50" and "(1,234.50)" for negatives */
    ACCOUNTING,
    /** "+1,234.50" / "-1,234.50" */
    SIGNED
}
