package com.ledgerly.io;

import com.ledgerly.core.Account;
import com.ledgerly.core.Ledger;
import com.ledgerly.core.Posting;
import com.ledgerly.core.Transaction;
import com.ledgerly.util.Text;
import java.util.List;

/** Writes the text format that {@link JournalReader} reads. */
public class JournalWriter {

    public String writeRow(Transaction tx, Posting posting) {
        StringBuilder sb = new StringBuilder();
        sb.append(Text.escapeCsv(tx.getId())).append(',');
        sb.append(tx.getDate()).append(',');
        sb.append(posting.getAccount().getCode()).append(',');
        sb.append(posting.getAmount().toPlainString()).append(',');
        sb.append(Text.escapeCsv(posting.getMemo()));
        return sb.toString();
    }

    /** One row per posting; the first row carries the description as its memo. */
    public String write(List<Transaction> transactions) {
        StringBuilder sb = new StringBuilder();
        for (Transaction tx : transactions) {
            List<Posting> postings = tx.getPostings();
            for (int i = 0; i < postings.size(); i++) {
                Posting p = postings.get(i);
                if (i == 0) {
                    p = new Posting(p.getAccount(), p.getAmount(), tx.getDescription());
                }
                sb.append(writeRow(tx, p)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The chart of accounts as "!account" lines, parents before children. */
    public String writeChart(Ledger ledger) {
        AccountCodec codec = new AccountCodec(ledger);
        StringBuilder sb = new StringBuilder();
        for (Account account : ledger.getAccounts()) {
            sb.append("!account ").append(codec.encode(account)).append('\n');
        }
        return sb.toString();
    }
}
