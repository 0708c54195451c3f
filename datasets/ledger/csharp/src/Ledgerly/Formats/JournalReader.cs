using System;
using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Common;

namespace Ledgerly.Formats
{
    /// <summary>
    /// Reads journal text. Blank lines and lines starting with '#' are skipped; "!account " lines add
    /// accounts (see <see cref="AccountCodec"/>); every other line is a CSV row "id,date,account,amount,memo".
    /// Consecutive rows with the same id form one transaction; its first memo is the description.
    /// </summary>
    public class JournalReader
    {
        private const string AccountPrefix = "!account ";
        private readonly Ledger ledger;
        private readonly AccountCodec codec;

        public JournalReader(Ledger ledger)
        {
            this.ledger = ledger;
            codec = new AccountCodec(ledger);
        }

        /// <summary>Parses one CSV row into a posting; the caller knows the line number.</summary>
        public Posting ParseRow(IList<string> fields)
        {
            if (fields.Count != 5)
            {
                throw new FormatException("expected 5 fields but got " + fields.Count);
            }
            Account account = ledger.GetAccount(fields[2].Trim());
            long cents = Money.ParseCents(fields[3]);
            return new Posting(account, new Money(cents, ledger.Currency), fields[4].Trim());
        }

        /// <summary>Reads the text, adding chart lines to the ledger, and returns the transactions in order.</summary>
        public List<Transaction> Read(string text)
        {
            var result = new List<Transaction>();
            string[] lines = text.Split('\n');
            Transaction.Builder current = null;
            string currentId = null;
            int startLine = 0;
            for (int i = 0; i < lines.Length; i++)
            {
                int lineNo = i + 1;
                string line = lines[i].TrimEnd('\r');
                if (Text.IsBlank(line) || line.Trim().StartsWith("#", StringComparison.Ordinal))
                {
                    continue;
                }
                try
                {
                    if (line.StartsWith(AccountPrefix, StringComparison.Ordinal))
                    {
                        ledger.AddAccount(codec.Decode(line.Substring(AccountPrefix.Length)));
                        continue;
                    }
                    List<string> fields = Text.SplitCsv(line);
                    string id = fields[0].Trim();
                    Posting posting = ParseRow(fields);
                    if (id != currentId)
                    {
                        if (current != null)
                        {
                            result.Add(Finish(current, startLine));
                        }
                        current = new Transaction.Builder(id, LedgerDate.Parse(fields[1]));
                        current.Description(posting.Memo);
                        currentId = id;
                        startLine = lineNo;
                    }
                    current.Add(posting);
                }
                catch (LedgerFormatException)
                {
                    throw;
                }
                catch (ArgumentException e)
                {
                    throw new LedgerFormatException(lineNo, e.Message, e);
                }
                catch (FormatException e)
                {
                    throw new LedgerFormatException(lineNo, e.Message, e);
                }
                catch (LedgerException e)
                {
                    throw new LedgerFormatException(lineNo, e.Message, e);
                }
            }
            if (current != null)
            {
                result.Add(Finish(current, startLine));
            }
            return result;
        }

        /// <summary>Builds a transaction, reporting an unbalanced one at the line where it starts.</summary>
        public Transaction Finish(Transaction.Builder builder, int startLine)
        {
            try
            {
                return builder.Build();
            }
            catch (LedgerException e)
            {
                throw new LedgerFormatException(startLine, e.Message, e);
            }
        }

        /// <summary>Reads the text and posts every transaction; returns how many were posted.</summary>
        public int Load(string text)
        {
            List<Transaction> transactions = Read(text);
            foreach (Transaction tx in transactions)
            {
                ledger.Post(tx);
            }
            return transactions.Count;
        }
    }
}
