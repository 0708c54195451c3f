package com.ledgerly.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A chart of accounts plus the journal of posted transactions, in one currency. */
public class Ledger {
    private final String currency;
    private final Map<String, Account> accounts = new LinkedHashMap<>();
    private final List<Transaction> journal = new ArrayList<>();
    private final Set<String> transactionIds = new HashSet<>();

    public Ledger(String currency) {
        this.currency = Money.zero(currency).getCurrency();
    }

    public String getCurrency() {
        return currency;
    }

    public void addAccount(Account account) {
        if (accounts.containsKey(account.getCode())) {
            throw new LedgerException("duplicate account code: " + account.getCode());
        }
        Account parent = account.getParent();
        if (parent != null && !accounts.containsKey(parent.getCode())) {
            throw new UnknownAccountException(parent.getCode());
        }
        accounts.put(account.getCode(), account);
    }

    public boolean hasAccount(String code) {
        return accounts.containsKey(code);
    }

    public Account getAccount(String code) {
        Account account = accounts.get(code);
        if (account == null) {
            throw new UnknownAccountException(code);
        }
        return account;
    }

    public List<Account> getAccounts() {
        return new ArrayList<>(accounts.values());
    }

    public List<Account> accountsOfType(AccountType type) {
        List<Account> result = new ArrayList<>();
        for (Account a : accounts.values()) {
            if (a.getType() == type) {
                result.add(a);
            }
        }
        return result;
    }

    public int getTransactionCount() {
        return journal.size();
    }

    public void post(Transaction tx) {
        if (transactionIds.contains(tx.getId())) {
            throw new LedgerException("duplicate transaction id: " + tx.getId());
        }
        for (Posting p : tx.getPostings()) {
            if (!accounts.containsKey(p.getAccount().getCode())) {
                throw new UnknownAccountException(p.getAccount().getCode());
            }
            if (!p.getAmount().getCurrency().equals(currency)) {
                throw new CurrencyMismatchException(currency, p.getAmount().getCurrency());
            }
        }
        journal.add(tx);
        transactionIds.add(tx.getId());
    }

    /** Debit-positive balance of one account over the whole journal. */
    public Money balanceOf(String code) {
        getAccount(code);
        long sum = 0;
        for (Transaction tx : journal) {
            for (Posting p : tx.getPostings()) {
                if (p.getAccount().getCode().equals(code)) {
                    sum += p.getAmount().getCents();
                }
            }
        }
        return new Money(sum, currency);
    }

    /** Debit-positive balance of one account counting transactions dated on or before asOf. */
    public Money balanceOf(String code, LedgerDate asOf) {
        getAccount(code);
        long sum = 0;
        for (Transaction tx : journal) {
            if (asOf.isBefore(tx.getDate())) {
                continue;
            }
            for (Posting p : tx.getPostings()) {
                if (p.getAccount().getCode().equals(code)) {
                    sum += p.getAmount().getCents();
                }
            }
        }
        return new Money(sum, currency);
    }

    /** Balance of an account plus all of its descendants. */
    public Money rolledUpBalance(String code) {
        Account root = getAccount(code);
        Money total = balanceOf(code);
        for (Account a : accounts.values()) {
            if (a.isDescendantOf(root)) {
                total = total.add(balanceOf(a.getCode()));
            }
        }
        return total;
    }

    public List<Transaction> find(Filter<Transaction> filter) {
        return Filters.apply(journal, filter);
    }

    /** Balances of every account, in chart order, as a code -> cents map. */
    public Map<String, Long> balances() {
        Map<String, Long> result = new LinkedHashMap<>();
        for (String code : accounts.keySet()) {
            result.put(code, 0L);
        }
        for (Transaction tx : journal) {
            for (Posting p : tx.getPostings()) {
                String code = p.getAccount().getCode();
                result.put(code, result.get(code) + p.getAmount().getCents());
            }
        }
        return result;
    }
}
