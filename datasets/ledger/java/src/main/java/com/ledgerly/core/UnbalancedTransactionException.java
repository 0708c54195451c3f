package com.ledgerly.core;

/** A transaction whose postings do not sum to zero. */
public class UnbalancedTransactionException extends LedgerException {
    private final String transactionId;
    private final long imbalanceCents;

    public UnbalancedTransactionException(String transactionId, long imbalanceCents) {
        super("transaction " + transactionId + " is off by " + imbalanceCents + " cents");
        this.transactionId = transactionId;
        this.imbalanceCents = imbalanceCents;
    }

    public String getTransactionId() {
        return transactionId;
    }

    public long getImbalanceCents() {
        return imbalanceCents;
    }
}
