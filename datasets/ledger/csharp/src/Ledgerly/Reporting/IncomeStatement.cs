using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Common;

namespace Ledgerly.Reporting
{
    /// <summary>Income and expenses over a date range, with income shown as positive amounts.</summary>
    public class IncomeStatement : Report
    {
        private readonly Ledger ledger;
        private readonly LedgerDate from;
        private readonly LedgerDate to;

        public IncomeStatement(Ledger ledger, LedgerDate from, LedgerDate to)
            : base("Income statement " + from + " to " + to)
        {
            this.ledger = ledger;
            this.from = from;
            this.to = to;
        }

        /// <summary>Per-account activity in the period for one account type, sign-adjusted so growth is positive.</summary>
        public Dictionary<Account, long> Activity(AccountType type)
        {
            var result = new Dictionary<Account, long>();
            foreach (Account a in ledger.AccountsOfType(type))
            {
                result[a] = 0;
            }
            foreach (Transaction tx in ledger.Find(Filters.DateBetween(from, to)))
            {
                foreach (Posting p in tx.Postings)
                {
                    Account a = p.Account;
                    if (a.Type == type)
                    {
                        result[a] += p.Amount.Cents * type.NormalSign();
                    }
                }
            }
            return result;
        }

        public long TotalIncome()
        {
            long sum = 0;
            foreach (long v in Activity(AccountType.Income).Values)
            {
                sum += v;
            }
            return sum;
        }

        public long TotalExpenses()
        {
            long sum = 0;
            foreach (long v in Activity(AccountType.Expense).Values)
            {
                sum += v;
            }
            return sum;
        }

        public long NetIncome()
        {
            return TotalIncome() - TotalExpenses();
        }

        /// <summary>Net income as a percentage of income, in whole basis points (1/100 of a percent).</summary>
        public int MarginBasisPoints()
        {
            long income = TotalIncome();
            if (income == 0)
            {
                return 0;
            }
            return (int)(NetIncome() * 10000 / income);
        }

        public override IList<string> BodyLines()
        {
            var lines = new List<string>();
            AccountType[] sections = { AccountType.Income, AccountType.Expense };
            foreach (AccountType type in sections)
            {
                lines.Add(type == AccountType.Income ? "Income" : "Expenses");
                Dictionary<Account, long> activity = Activity(type);
                foreach (Account a in ledger.AccountsOfType(type))
                {
                    long value = activity[a];
                    if (value != 0)
                    {
                        string label = "  " + Text.PadRight(a.Name, 22, '.');
                        lines.Add(label + Text.PadLeft(Amounts.Format(value, Style), 14, ' '));
                    }
                }
            }
            return lines;
        }

        public override string Footer()
        {
            return Text.PadRight("Net income", 24, ' ') + Text.PadLeft(Amounts.Format(NetIncome(), Style), 14, ' ');
        }
    }
}
