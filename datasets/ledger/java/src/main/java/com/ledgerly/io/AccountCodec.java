package com.ledgerly.io;

import com.ledgerly.core.Account;
import com.ledgerly.core.AccountType;
import com.ledgerly.core.Ledger;

/** Chart lines "code;name;typeCode;parentCode" (parentCode empty for top-level accounts). */
public class AccountCodec implements LineCodec<Account> {
    private final Ledger ledger;

    public AccountCodec(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public String encode(Account account) {
        if (account.getName().indexOf(';') >= 0) {
            throw new IllegalArgumentException("account name must not contain ';': " + account.getName());
        }
        String parent = account.getParent() == null ? "" : account.getParent().getCode();
        return account.getCode() + ";" + account.getName() + ";" + account.getType().getCode() + ";" + parent;
    }

    @Override
    public Account decode(String line) {
        String[] parts = line.split(";", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("expected 4 fields separated by ';' but got " + parts.length);
        }
        if (parts[2].length() != 1) {
            throw new IllegalArgumentException("account type must be one letter: " + parts[2]);
        }
        AccountType type = AccountType.fromCode(parts[2].charAt(0));
        Account parent = parts[3].isEmpty() ? null : ledger.getAccount(parts[3]);
        return new Account(parts[0], parts[1], type, parent);
    }
}
