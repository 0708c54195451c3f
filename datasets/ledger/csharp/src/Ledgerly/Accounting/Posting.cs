using System;

namespace Ledgerly.Accounting
{
    /// <summary>One line of a transaction: an amount booked to an account (positive = debit).</summary>
    public class Posting
    {
        public Posting(Account account, Money amount, string memo)
        {
            if (amount.IsZero)
            {
                throw new ArgumentException("posting to " + account.Code + " has zero amount", "amount");
            }
            Account = account;
            Amount = amount;
            Memo = memo ?? "";
        }

        public Posting(Account account, Money amount)
            : this(account, amount, "")
        {
        }

        public Account Account { get; }

        public Money Amount { get; }

        public string Memo { get; }

        public bool IsDebit
        {
            get { return !Amount.IsNegative; }
        }

        public override string ToString()
        {
            string side = IsDebit ? "Dr" : "Cr";
            string text = side + " " + Account.Code + " " + Amount.Abs();
            return Memo.Length == 0 ? text : text + " (" + Memo + ")";
        }
    }
}
