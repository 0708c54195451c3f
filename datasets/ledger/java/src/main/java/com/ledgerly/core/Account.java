package com.ledgerly.core;

import com.ledgerly.util.Checks;

/** A node in the chart of accounts. */
public class Account {
    private final String code;
    private final String name;
    private final AccountType type;
    private final Account parent;

    public Account(String code, String name, AccountType type) {
        this(code, name, type, null);
    }

    public Account(String code, String name, AccountType type, Account parent) {
        if (!Checks.isValidAccountCode(code)) {
            throw new IllegalArgumentException("invalid account code: " + code);
        }
        this.code = code;
        this.name = Checks.requireNonEmpty(name, "name");
        this.type = type;
        this.parent = parent;
        if (parent != null && parent.getType() != type) {
            throw new IllegalArgumentException("account " + code + " must have the type of its parent");
        }
    }

    public String getCode() {
        return code;
    }

    public String getName() {
        return name;
    }

    public AccountType getType() {
        return type;
    }

    public Account getParent() {
        return parent;
    }

    public int getDepth() {
        int depth = 0;
        for (Account a = parent; a != null; a = a.parent) {
            depth++;
        }
        return depth;
    }

    /** Names from the root down, joined with ':' (e.g. "Assets:Bank:Checking"). */
    public String getPath() {
        StringBuilder sb = new StringBuilder(name);
        for (Account a = parent; a != null; a = a.parent) {
            sb.insert(0, ':').insert(0, a.name);
        }
        return sb.toString();
    }

    public boolean isDescendantOf(Account ancestor) {
        for (Account a = parent; a != null; a = a.parent) {
            if (a.code.equals(ancestor.code)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Account && ((Account) other).code.equals(code);
    }

    @Override
    public int hashCode() {
        return code.hashCode();
    }

    @Override
    public String toString() {
        return code + " " + name;
    }
}
