using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Common;

namespace Ledgerly.Reporting
{
    /// <summary>Every account with a non-zero balance in a debit or a credit column.</summary>
    public class TrialBalanceReport : Report
    {
        private const int NameWidth = 24;
        private const int AmountWidth = 14;
        private readonly Ledger ledger;

        public TrialBalanceReport(Ledger ledger)
            : base("Trial balance (" + ledger.Currency + ")")
        {
            this.ledger = ledger;
        }

        public bool IsBalanced
        {
            get { return TotalDebits() == TotalCredits(); }
        }

        public List<Row> Rows()
        {
            var rows = new List<Row>();
            Dictionary<string, long> balances = ledger.Balances();
            foreach (Account a in ledger.Accounts)
            {
                long balance = balances[a.Code];
                if (balance != 0)
                {
                    rows.Add(new Row(a.Code, a.Name, balance));
                }
            }
            return rows;
        }

        public long TotalDebits()
        {
            long sum = 0;
            foreach (Row r in Rows())
            {
                sum += r.DebitCents;
            }
            return sum;
        }

        public long TotalCredits()
        {
            long sum = 0;
            foreach (Row r in Rows())
            {
                sum += r.CreditCents;
            }
            return sum;
        }

        public string FormatCell(long cents)
        {
            string text = cents == 0 ? "" : Amounts.Format(cents, Style);
            return Text.PadLeft(text, AmountWidth, ' ');
        }

        public override IList<string> BodyLines()
        {
            var lines = new List<string>();
            foreach (Row r in Rows())
            {
                string label = Text.PadRight(r.Code + " " + r.Name, NameWidth, ' ');
                lines.Add(label + FormatCell(r.DebitCents) + FormatCell(r.CreditCents));
            }
            return lines;
        }

        public override string Footer()
        {
            return Text.PadRight("Total", NameWidth, ' ') + FormatCell(TotalDebits()) + FormatCell(TotalCredits());
        }

        /// <summary>One line of the trial balance.</summary>
        public class Row
        {
            public Row(string code, string name, long balanceCents)
            {
                Code = code;
                Name = name;
                DebitCents = balanceCents > 0 ? balanceCents : 0;
                CreditCents = balanceCents < 0 ? -balanceCents : 0;
            }

            public string Code { get; }

            public string Name { get; }

            public long DebitCents { get; }

            public long CreditCents { get; }
        }
    }
}
