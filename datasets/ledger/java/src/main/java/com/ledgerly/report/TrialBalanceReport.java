package com.ledgerly.report;

import com.ledgerly.core.Account;
import com.ledgerly.core.Ledger;
import com.ledgerly.util.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Every account with a non-zero balance in a debit or a credit column. */
public class TrialBalanceReport extends Report {
    private static final int NAME_WIDTH = 24;
    private static final int AMOUNT_WIDTH = 14;
    private final Ledger ledger;

    /** One line of the trial balance. */
    public static class Row {
        private final String code;
        private final String name;
        private final long debitCents;
        private final long creditCents;

        public Row(String code, String name, long balanceCents) {
            this.code = code;
            this.name = name;
            this.debitCents = balanceCents > 0 ? balanceCents : 0;
            this.creditCents = balanceCents < 0 ? -balanceCents : 0;
        }

        public String getCode() {
            return code;
        }

        public String getName() {
            return name;
        }

        public long getDebitCents() {
            return debitCents;
        }

        public long getCreditCents() {
            return creditCents;
        }
    }

    public TrialBalanceReport(Ledger ledger) {
        super("Trial balance (" + ledger.getCurrency() + ")");
        this.ledger = ledger;
    }

    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Long> e : ledger.balances().entrySet()) {
            if (e.getValue() != 0) {
                Account a = ledger.getAccount(e.getKey());
                rows.add(new Row(a.getCode(), a.getName(), e.getValue()));
            }
        }
        return rows;
    }

    public long totalDebits() {
        long sum = 0;
        for (Row r : rows()) {
            sum += r.getDebitCents();
        }
        return sum;
    }

    public long totalCredits() {
        long sum = 0;
        for (Row r : rows()) {
            sum += r.getCreditCents();
        }
        return sum;
    }

    public boolean isBalanced() {
        return totalDebits() == totalCredits();
    }

    public String formatCell(long cents) {
        String text = cents == 0 ? "" : Amounts.format(cents, getStyle());
        return Text.padLeft(text, AMOUNT_WIDTH, ' ');
    }

    @Override
    public List<String> bodyLines() {
        List<String> lines = new ArrayList<>();
        for (Row r : rows()) {
            String label = Text.padRight(r.getCode() + " " + r.getName(), NAME_WIDTH, ' ');
            lines.add(label + formatCell(r.getDebitCents()) + formatCell(r.getCreditCents()));
        }
        return lines;
    }

    @Override
    public String footer() {
        return Text.padRight("Total", NAME_WIDTH, ' ') + formatCell(totalDebits()) + formatCell(totalCredits());
    }
}
