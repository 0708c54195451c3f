package com.ledgerly.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A balanced set of postings on one date; built with {@link Transaction.Builder}. */
public class Transaction {
    private final String id;
    private final LedgerDate date;
    private final String description;
    private final List<Posting> postings;

    private Transaction(Builder builder) {
        this.id = builder.id;
        this.date = builder.date;
        this.description = builder.description;
        this.postings = Collections.unmodifiableList(new ArrayList<>(builder.postings));
    }

    public String getId() {
        return id;
    }

    public LedgerDate getDate() {
        return date;
    }

    public String getDescription() {
        return description;
    }

    public List<Posting> getPostings() {
        return postings;
    }

    /** Sum of the debit side, which equals the sum of the credit side. */
    public Money total() {
        Money sum = Money.zero(postings.get(0).getAmount().getCurrency());
        for (Posting p : postings) {
            if (p.isDebit()) {
                sum = sum.add(p.getAmount());
            }
        }
        return sum;
    }

    public boolean involves(String accountCode) {
        for (Posting p : postings) {
            if (p.getAccount().getCode().equals(accountCode)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(date).append(' ').append(id);
        if (!description.isEmpty()) {
            sb.append(" \"").append(description).append('"');
        }
        for (Posting p : postings) {
            sb.append("\n  ").append(p);
        }
        return sb.toString();
    }

    /** Collects postings and checks the double-entry rule on build(). */
    public static class Builder {
        private final String id;
        private final LedgerDate date;
        private String description = "";
        private final List<Posting> postings = new ArrayList<>();

        public Builder(String id, LedgerDate date) {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("transaction id must not be empty");
            }
            this.id = id;
            this.date = date;
        }

        public Builder description(String text) {
            this.description = text == null ? "" : text.trim();
            return this;
        }

        public Builder add(Posting posting) {
            postings.add(posting);
            return this;
        }

        public Builder debit(Account account, Money amount) {
            return add(new Posting(account, amount.abs()));
        }

        public Builder credit(Account account, Money amount) {
            return add(new Posting(account, amount.abs().negate()));
        }

        /** Sum of all postings in cents; zero when balanced. */
        public long imbalance() {
            long sum = 0;
            String currency = null;
            for (Posting p : postings) {
                if (currency == null) {
                    currency = p.getAmount().getCurrency();
                } else if (!currency.equals(p.getAmount().getCurrency())) {
                    throw new CurrencyMismatchException(currency, p.getAmount().getCurrency());
                }
                sum += p.getAmount().getCents();
            }
            return sum;
        }

        public Transaction build() {
            if (postings.size() < 2) {
                throw new LedgerException("transaction " + id + " needs at least two postings");
            }
            long off = imbalance();
            if (off != 0) {
                throw new UnbalancedTransactionException(id, off);
            }
            return new Transaction(this);
        }
    }
}
