package com.ledgerly.core;

/** An account code that the ledger does not know. */
public class UnknownAccountException extends LedgerException {
    private final String accountCode;

    public UnknownAccountException(String accountCode) {
        super("unknown account: " + accountCode);
        this.accountCode = accountCode;
    }

    public String getAccountCode() {
        return accountCode;
    }
}
