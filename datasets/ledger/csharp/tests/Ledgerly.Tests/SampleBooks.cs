using Ledgerly.Accounting;

namespace Ledgerly.Tests
{
    /// <summary>A small chart of accounts and four posted transactions shared by the tests.</summary>
    public static class SampleBooks
    {
        public static Ledger Chart()
        {
            var ledger = new Ledger("USD");
            var assets = new Account("1000", "Assets", AccountType.Asset);
            var bank = new Account("1100", "Bank", AccountType.Asset, assets);
            ledger.AddAccount(assets);
            ledger.AddAccount(bank);
            ledger.AddAccount(new Account("1110", "Checking", AccountType.Asset, bank));
            ledger.AddAccount(new Account("2000", "Payables", AccountType.Liability));
            ledger.AddAccount(new Account("3000", "Equity", AccountType.Equity));
            ledger.AddAccount(new Account("4000", "Sales", AccountType.Income));
            ledger.AddAccount(new Account("4100", "Consulting", AccountType.Income));
            ledger.AddAccount(new Account("5000", "Rent", AccountType.Expense));
            ledger.AddAccount(new Account("5100", "Supplies", AccountType.Expense));
            return ledger;
        }

        public static Money Usd(long cents)
        {
            return new Money(cents, "USD");
        }

        public static Transaction Tx(Ledger ledger, string id, string date, string description,
            string debitCode, string creditCode, long cents)
        {
            return new Transaction.Builder(id, LedgerDate.Parse(date))
                .Description(description)
                .Debit(ledger.GetAccount(debitCode), Usd(cents))
                .Credit(ledger.GetAccount(creditCode), Usd(cents))
                .Build();
        }

        /// <summary>Checking 2700.00 Dr, Equity 1000.00 Cr, Consulting 2500.00 Cr, Rent 800.00 Dr, Supplies/Payables 120.50.</summary>
        public static Ledger Posted()
        {
            Ledger ledger = Chart();
            ledger.Post(Tx(ledger, "T1", "2024-01-01", "Owner investment", "1110", "3000", 100000));
            ledger.Post(Tx(ledger, "T2", "2024-01-15", "Consulting invoice paid", "1110", "4100", 250000));
            ledger.Post(Tx(ledger, "T3", "2024-02-01", "Rent February", "5000", "1110", 80000));
            ledger.Post(Tx(ledger, "T4", "2024-03-10", "Supplies on credit", "5100", "2000", 12050));
            return ledger;
        }
    }
}
