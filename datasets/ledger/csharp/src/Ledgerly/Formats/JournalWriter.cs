using System.Collections.Generic;
using System.Text;
using Ledgerly.Accounting;
using Ledgerly.Common;

namespace Ledgerly.Formats
{
    /// <summary>Writes the text format that <see cref="JournalReader"/> reads.</summary>
    public class JournalWriter
    {
        public string WriteRow(Transaction tx, Posting posting)
        {
            var sb = new StringBuilder();
            sb.Append(Text.EscapeCsv(tx.Id)).Append(',');
            sb.Append(tx.Date).Append(',');
            sb.Append(posting.Account.Code).Append(',');
            sb.Append(posting.Amount.ToPlainString()).Append(',');
            sb.Append(Text.EscapeCsv(posting.Memo));
            return sb.ToString();
        }

        /// <summary>One row per posting; the first row carries the description as its memo.</summary>
        public string Write(IEnumerable<Transaction> transactions)
        {
            var sb = new StringBuilder();
            foreach (Transaction tx in transactions)
            {
                IReadOnlyList<Posting> postings = tx.Postings;
                for (int i = 0; i < postings.Count; i++)
                {
                    Posting p = postings[i];
                    if (i == 0)
                    {
                        p = new Posting(p.Account, p.Amount, tx.Description);
                    }
                    sb.Append(WriteRow(tx, p)).Append('\n');
                }
            }
            return sb.ToString();
        }

        /// <summary>The chart of accounts as "!account" lines, parents before children.</summary>
        public string WriteChart(Ledger ledger)
        {
            var codec = new AccountCodec(ledger);
            var sb = new StringBuilder();
            foreach (Account account in ledger.Accounts)
            {
                sb.Append("!account ").Append(codec.Encode(account)).Append('\n');
            }
            return sb.ToString();
        }
    }
}
