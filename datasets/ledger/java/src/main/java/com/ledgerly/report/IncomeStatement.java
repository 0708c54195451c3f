package com.ledgerly.report;

import com.ledgerly.core.Account;
import com.ledgerly.core.AccountType;
import com.ledgerly.core.Filters;
import com.ledgerly.core.Ledger;
import com.ledgerly.core.LedgerDate;
import com.ledgerly.core.Posting;
import com.ledgerly.core.Transaction;
import com.ledgerly.util.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Income and expenses over a date range, with income shown as positive amounts. */
public class IncomeStatement extends Report {
    private final Ledger ledger;
    private final LedgerDate from;
    private final LedgerDate to;

    public IncomeStatement(Ledger ledger, LedgerDate from, LedgerDate to) {
        super("Income statement " + from + " to " + to);
        this.ledger = ledger;
        this.from = from;
        this.to = to;
    }

    /** Per-account activity in the period for one account type, sign-adjusted so growth is positive. */
    public Map<Account, Long> activity(AccountType type) {
        Map<Account, Long> result = new LinkedHashMap<>();
        for (Account a : ledger.accountsOfType(type)) {
            result.put(a, 0L);
        }
        for (Transaction tx : ledger.find(Filters.dateBetween(from, to))) {
            for (Posting p : tx.getPostings()) {
                Account a = p.getAccount();
                if (a.getType() == type) {
                    result.put(a, result.get(a) + p.getAmount().getCents() * type.normalSign());
                }
            }
        }
        return result;
    }

    public long totalIncome() {
        long sum = 0;
        for (long v : activity(AccountType.INCOME).values()) {
            sum += v;
        }
        return sum;
    }

    public long totalExpenses() {
        long sum = 0;
        for (long v : activity(AccountType.EXPENSE).values()) {
            sum += v;
        }
        return sum;
    }

    public long netIncome() {
        return totalIncome() - totalExpenses();
    }

    /** Net income as a percentage of income, in whole basis points (1/100 of a percent). */
    public int marginBasisPoints() {
        long income = totalIncome();
        if (income == 0) {
            return 0;
        }
        return (int) (netIncome() * 10000 / income);
    }

    @Override
    public List<String> bodyLines() {
        List<String> lines = new ArrayList<>();
        AccountType[] sections = {AccountType.INCOME, AccountType.EXPENSE};
        for (AccountType type : sections) {
            lines.add(type == AccountType.INCOME ? "Income" : "Expenses");
            for (Map.Entry<Account, Long> e : activity(type).entrySet()) {
                if (e.getValue() != 0) {
                    String label = "  " + Text.padRight(e.getKey().getName(), 22, '.');
                    lines.add(label + Text.padLeft(Amounts.format(e.getValue(), getStyle()), 14, ' '));
                }
            }
        }
        return lines;
    }

    @Override
    public String footer() {
        return Text.padRight("Net income", 24, ' ') + Text.padLeft(Amounts.format(netIncome(), getStyle()), 14, ' ');
    }
}
