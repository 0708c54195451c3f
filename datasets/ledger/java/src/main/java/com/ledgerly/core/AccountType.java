package com.ledgerly.core;

/** The five kinds of account in double-entry bookkeeping. */
public enum AccountType {
    ASSET('A', true),
    LIABILITY('L', false),
    EQUITY('E', false),
    INCOME('I', false),
    EXPENSE('X', true);

    private final char code;
    private final boolean debitNormal;

    AccountType(char code, boolean debitNormal) {
        this.code = code;
        this.debitNormal = debitNormal;
    }

    public char getCode() {
        return code;
    }

    public boolean isDebitNormal() {
        return debitNormal;
    }

    /** +1 when a debit increases the balance as reported, -1 otherwise. */
    public int normalSign() {
        return debitNormal ? 1 : -1;
    }

    public boolean isBalanceSheet() {
        switch (this) {
            case ASSET:
            case LIABILITY:
            case EQUITY:
                return true;
            default:
                return false;
        }
    }

    public static AccountType fromCode(char code) {
        switch (Character.toUpperCase(code)) {
            case 'A':
                return ASSET;
            case 'L':
                return LIABILITY;
            case 'E':
                return EQUITY;
            case 'I':
                return INCOME;
            case 'X':
                return EXPENSE;
            default:
                throw new IllegalArgumentException("unknown account type code: " + code);
        }
    }
}
