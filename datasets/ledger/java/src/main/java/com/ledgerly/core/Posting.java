package com.ledgerly.core;

/** One line of a transaction: an amount booked to an account (positive = debit). */
public class Posting {
    private final Account account;
    private final Money amount;
    private final String memo;

    public Posting(Account account, Money amount, String memo) {
        if (amount.isZero()) {
            throw new IllegalArgumentException("posting to " + account.getCode() + " has zero amount");
        }
        this.account = account;
        this.amount = amount;
        this.memo = memo == null ? "" : memo;
    }

    public Posting(Account account, Money amount) {
        this(account, amount, "");
    }

    public Account getAccount() {
        return account;
    }

    public Money getAmount() {
        return amount;
    }

    public String getMemo() {
        return memo;
    }

    public boolean isDebit() {
        return !amount.isNegative();
    }

    @Override
    public String toString() {
        String side = isDebit() ? "Dr" : "Cr";
        String text = side + " " + account.getCode() + " " + amount.abs();
        return memo.isEmpty() ? text : text + " (" + memo + ")";
    }
}
