package com.ledgerly.io;

import com.ledgerly.core.Account;
import com.ledgerly.core.LedgerDate;
import com.ledgerly.core.LedgerException;
import com.ledgerly.core.Ledger;
import com.ledgerly.core.Money;
import com.ledgerly.core.Posting;
import com.ledgerly.core.Transaction;
import com.ledgerly.util.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads journal text. Blank lines and lines starting with '#' are skipped; "!account " lines add
 * accounts (see {@link AccountCodec}); every other line is a CSV row "id,date,account,amount,memo".
 * Consecutive rows with the same id form one transaction; its first memo is the description.
 */
public class JournalReader {
    private static final String ACCOUNT_PREFIX = "!account ";
    private final Ledger ledger;
    private final AccountCodec codec;

    public JournalReader(Ledger ledger) {
        this.ledger = ledger;
        this.codec = new AccountCodec(ledger);
    }

    /** Parses one CSV row into a posting; the caller knows the line number. */
    public Posting parseRow(List<String> fields) {
        if (fields.size() != 5) {
            throw new IllegalArgumentException("expected 5 fields but got " + fields.size());
        }
        Account account = ledger.getAccount(fields.get(2).trim());
        long cents = Money.parseCents(fields.get(3));
        return new Posting(account, new Money(cents, ledger.getCurrency()), fields.get(4).trim());
    }

    /** Reads the text, adding chart lines to the ledger, and returns the transactions in order. */
    public List<Transaction> read(String text) {
        List<Transaction> result = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        Transaction.Builder current = null;
        String currentId = null;
        int startLine = 0;
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (Text.isBlank(line) || line.trim().startsWith("#")) {
                continue;
            }
            try {
                if (line.startsWith(ACCOUNT_PREFIX)) {
                    ledger.addAccount(codec.decode(line.substring(ACCOUNT_PREFIX.length())));
                    continue;
                }
                List<String> fields = Text.splitCsv(line);
                String id = fields.get(0).trim();
                Posting posting = parseRow(fields);
                if (!id.equals(currentId)) {
                    if (current != null) {
                        result.add(finish(current, startLine));
                    }
                    current = new Transaction.Builder(id, LedgerDate.parse(fields.get(1)));
                    current.description(posting.getMemo());
                    currentId = id;
                    startLine = lineNo;
                }
                current.add(posting);
            } catch (LedgerFormatException e) {
                throw e;
            } catch (IllegalArgumentException | LedgerException e) {
                throw new LedgerFormatException(lineNo, e.getMessage(), e);
            }
        }
        if (current != null) {
            result.add(finish(current, startLine));
        }
        return result;
    }

    /** Builds a transaction, reporting an unbalanced one at the line where it starts. */
    public Transaction finish(Transaction.Builder builder, int startLine) {
        try {
            return builder.build();
        } catch (LedgerException e) {
            throw new LedgerFormatException(startLine, e.getMessage(), e);
        }
    }

    /** Reads the text and posts every transaction; returns how many were posted. */
    public int load(String text) {
        List<Transaction> transactions = read(text);
        for (Transaction tx : transactions) {
            ledger.post(tx);
        }
        return transactions.size();
    }
}
