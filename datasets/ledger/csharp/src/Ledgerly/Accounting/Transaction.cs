using System;
using System.Collections.Generic;
using System.Text;

namespace Ledgerly.Accounting
{
    /// <summary>A balanced set of postings on one date; built with <see cref="Transaction.Builder"/>.</summary>
    public class Transaction
    {
        private readonly List<Posting> postings;

        private Transaction(string id, LedgerDate date, string description, IEnumerable<Posting> postings)
        {
            Id = id;
            Date = date;
            Description = description;
            this.postings = new List<Posting>(postings);
        }

        public string Id { get; }

        public LedgerDate Date { get; }

        public string Description { get; }

        public IReadOnlyList<Posting> Postings
        {
            get { return postings.AsReadOnly(); }
        }

        /// <summary>Sum of the debit side, which equals the sum of the credit side.</summary>
        public Money Total()
        {
            Money sum = Money.Zero(postings[0].Amount.Currency);
            foreach (Posting p in postings)
            {
                if (p.IsDebit)
                {
                    sum = sum.Add(p.Amount);
                }
            }
            return sum;
        }

        public bool Involves(string accountCode)
        {
            foreach (Posting p in postings)
            {
                if (p.Account.Code == accountCode)
                {
                    return true;
                }
            }
            return false;
        }

        public override string ToString()
        {
            var sb = new StringBuilder();
            sb.Append(Date).Append(' ').Append(Id);
            if (Description.Length > 0)
            {
                sb.Append(" \"").Append(Description).Append('"');
            }
            foreach (Posting p in postings)
            {
                sb.Append("\n  ").Append(p);
            }
            return sb.ToString();
        }

        /// <summary>Collects postings and checks the double-entry rule on Build().</summary>
        public class Builder
        {
            private readonly string id;
            private readonly LedgerDate date;
            private readonly List<Posting> postings = new List<Posting>();
            private string description = "";

            public Builder(string id, LedgerDate date)
            {
                if (string.IsNullOrEmpty(id))
                {
                    throw new ArgumentException("transaction id must not be empty", "id");
                }
                this.id = id;
                this.date = date;
            }

            public Builder Description(string text)
            {
                description = text == null ? "" : text.Trim();
                return this;
            }

            public Builder Add(Posting posting)
            {
                postings.Add(posting);
                return this;
            }

            public Builder Debit(Account account, Money amount)
            {
                return Add(new Posting(account, amount.Abs()));
            }

            public Builder Credit(Account account, Money amount)
            {
                return Add(new Posting(account, amount.Abs().Negate()));
            }

            /// <summary>Sum of all postings in cents; zero when balanced.</summary>
            public long Imbalance()
            {
                long sum = 0;
                string currency = null;
                foreach (Posting p in postings)
                {
                    if (currency == null)
                    {
                        currency = p.Amount.Currency;
                    }
                    else if (currency != p.Amount.Currency)
                    {
                        throw new CurrencyMismatchException(currency, p.Amount.Currency);
                    }
                    sum += p.Amount.Cents;
                }
                return sum;
            }

            public Transaction Build()
            {
                if (postings.Count < 2)
                {
                    throw new LedgerException("transaction " + id + " needs at least two postings");
                }
                long off = Imbalance();
                if (off != 0)
                {
                    throw new UnbalancedTransactionException(id, off);
                }
                return new Transaction(id, date, description, postings);
            }
        }
    }
}
