using System.Collections.Generic;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class LedgerTests
    {
        private Ledger ledger;

        [SetUp]
        public void SetUp()
        {
            ledger = SampleBooks.Posted();
        }

        [Test]
        public void ConstructorValidatesCurrency()
        {
            Assert.AreEqual("USD", ledger.Currency);
            Assert.Throws<System.ArgumentException>(() => new Ledger("usd"));
        }

        [Test]
        public void AddAccountRejectsDuplicatesAndOrphans()
        {
            Assert.Throws<LedgerException>(() => ledger.AddAccount(new Account("1000", "Again", AccountType.Asset)));
            var orphanParent = new Account("1900", "Elsewhere", AccountType.Asset);
            var e = Assert.Throws<UnknownAccountException>(() => ledger.AddAccount(new Account("1910", "Child", AccountType.Asset, orphanParent)));
            Assert.AreEqual("1900", e.AccountCode);
            ledger.AddAccount(new Account("1200", "Receivables", AccountType.Asset));
            Assert.IsTrue(ledger.HasAccount("1200"));
        }

        [Test]
        public void HasAndGetAccount()
        {
            Assert.IsTrue(ledger.HasAccount("5100"));
            Assert.IsFalse(ledger.HasAccount("5200"));
            Assert.AreEqual("Supplies", ledger.GetAccount("5100").Name);
            Assert.Throws<UnknownAccountException>(() => ledger.GetAccount("5200"));
        }

        [Test]
        public void AccountsKeepChartOrder()
        {
            var codes = new List<string>();
            foreach (Account a in ledger.Accounts)
            {
                codes.Add(a.Code);
            }
            Assert.AreEqual("1000,1100,1110,2000,3000,4000,4100,5000,5100", string.Join(",", codes));
        }

        [Test]
        public void AccountsOfTypeFilters()
        {
            List<Account> income = ledger.AccountsOfType(AccountType.Income);
            Assert.AreEqual(2, income.Count);
            Assert.AreEqual("4000", income[0].Code);
            Assert.AreEqual("4100", income[1].Code);
            Assert.AreEqual(3, ledger.AccountsOfType(AccountType.Asset).Count);
        }

        [Test]
        public void PostAppendsAndChecks()
        {
            Assert.AreEqual(4, ledger.TransactionCount);
            Assert.Throws<LedgerException>(() => ledger.Post(SampleBooks.Tx(ledger, "T1", "2024-05-01", "dup", "1110", "3000", 1)));
            var stranger = new Account("1999", "Stranger", AccountType.Asset);
            Transaction unknown = new Transaction.Builder("T5", LedgerDate.Parse("2024-05-01"))
                .Debit(stranger, SampleBooks.Usd(1)).Credit(ledger.GetAccount("3000"), SampleBooks.Usd(1)).Build();
            Assert.Throws<UnknownAccountException>(() => ledger.Post(unknown));
            Transaction euros = new Transaction.Builder("T6", LedgerDate.Parse("2024-05-01"))
                .Debit(ledger.GetAccount("1110"), new Money(1, "EUR")).Credit(ledger.GetAccount("3000"), new Money(1, "EUR")).Build();
            Assert.Throws<CurrencyMismatchException>(() => ledger.Post(euros));
            Assert.AreEqual(4, ledger.TransactionCount);
            ledger.Post(SampleBooks.Tx(ledger, "T7", "2024-05-01", "more", "1110", "3000", 1));
            Assert.AreEqual(5, ledger.TransactionCount);
        }

        [Test]
        public void BalanceOfSumsPostings()
        {
            Assert.AreEqual(SampleBooks.Usd(270000), ledger.BalanceOf("1110"));
            Assert.AreEqual(SampleBooks.Usd(-250000), ledger.BalanceOf("4100"));
            Assert.AreEqual(SampleBooks.Usd(0), ledger.BalanceOf("1000"));
            Assert.Throws<UnknownAccountException>(() => ledger.BalanceOf("9999"));
        }

        [Test]
        public void BalanceOfAsOfSkipsLaterTransactions()
        {
            Assert.AreEqual(SampleBooks.Usd(350000), ledger.BalanceOf("1110", LedgerDate.Parse("2024-01-31")));
            Assert.AreEqual(SampleBooks.Usd(270000), ledger.BalanceOf("1110", LedgerDate.Parse("2024-02-01")));
            Assert.AreEqual(SampleBooks.Usd(0), ledger.BalanceOf("1110", LedgerDate.Parse("2023-12-31")));
            Assert.Throws<UnknownAccountException>(() => ledger.BalanceOf("9999", LedgerDate.Parse("2024-01-31")));
        }

        [Test]
        public void RolledUpBalanceIncludesDescendants()
        {
            Assert.AreEqual(SampleBooks.Usd(270000), ledger.RolledUpBalance("1000"));
            Assert.AreEqual(SampleBooks.Usd(270000), ledger.RolledUpBalance("1100"));
            Assert.AreEqual(SampleBooks.Usd(-250000), ledger.RolledUpBalance("4100"));
        }

        [Test]
        public void FindAppliesFilter()
        {
            List<Transaction> found = ledger.Find(Filters.Involving("5000"));
            Assert.AreEqual(1, found.Count);
            Assert.AreEqual("T3", found[0].Id);
        }

        [Test]
        public void BalancesCoverEveryAccount()
        {
            Dictionary<string, long> balances = ledger.Balances();
            Assert.AreEqual(9, balances.Count);
            Assert.AreEqual(270000L, balances["1110"]);
            Assert.AreEqual(-100000L, balances["3000"]);
            Assert.AreEqual(12050L, balances["5100"]);
            Assert.AreEqual(0L, balances["4000"]);
        }
    }
}
