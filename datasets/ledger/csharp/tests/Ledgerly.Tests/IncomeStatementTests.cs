using System.Collections.Generic;
using Ledgerly.Accounting;
using Ledgerly.Reporting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class IncomeStatementTests
    {
        private Ledger ledger;
        private IncomeStatement firstTwoMonths;

        [SetUp]
        public void SetUp()
        {
            ledger = SampleBooks.Posted();
            firstTwoMonths = new IncomeStatement(ledger, LedgerDate.Parse("2024-01-01"), LedgerDate.Parse("2024-02-29"));
        }

        [Test]
        public void TitleShowsRange()
        {
            Assert.AreEqual("Income statement 2024-01-01 to 2024-02-29", firstTwoMonths.Title);
        }

        [Test]
        public void ActivityIsSignAdjustedPerAccount()
        {
            Dictionary<Account, long> income = firstTwoMonths.Activity(AccountType.Income);
            Assert.AreEqual(2, income.Count);
            Assert.AreEqual(250000L, income[ledger.GetAccount("4100")]);
            Assert.AreEqual(0L, income[ledger.GetAccount("4000")]);
            Dictionary<Account, long> expenses = firstTwoMonths.Activity(AccountType.Expense);
            Assert.AreEqual(80000L, expenses[ledger.GetAccount("5000")]);
            Assert.AreEqual(0L, expenses[ledger.GetAccount("5100")]);
        }

        [Test]
        public void TotalsAndNet()
        {
            Assert.AreEqual(250000L, firstTwoMonths.TotalIncome());
            Assert.AreEqual(80000L, firstTwoMonths.TotalExpenses());
            Assert.AreEqual(170000L, firstTwoMonths.NetIncome());
            var year = new IncomeStatement(ledger, LedgerDate.Parse("2024-01-01"), LedgerDate.Parse("2024-12-31"));
            Assert.AreEqual(92050L, year.TotalExpenses());
            Assert.AreEqual(157950L, year.NetIncome());
        }

        [Test]
        public void MarginTruncatesTowardZero()
        {
            Assert.AreEqual(6800, firstTwoMonths.MarginBasisPoints());
            var loss = SampleBooks.Chart();
            loss.Post(SampleBooks.Tx(loss, "S1", "2024-01-10", "sale", "1110", "4000", 30000));
            loss.Post(SampleBooks.Tx(loss, "R1", "2024-01-11", "rent", "5000", "1110", 40000));
            var statement = new IncomeStatement(loss, LedgerDate.Parse("2024-01-01"), LedgerDate.Parse("2024-01-31"));
            Assert.AreEqual(-10000L, statement.NetIncome());
            Assert.AreEqual(-3333, statement.MarginBasisPoints());
            var empty = new IncomeStatement(SampleBooks.Chart(), LedgerDate.Parse("2024-01-01"), LedgerDate.Parse("2024-01-31"));
            Assert.AreEqual(0, empty.MarginBasisPoints());
        }

        [Test]
        public void BodyLinesListNonZeroAccounts()
        {
            IList<string> lines = firstTwoMonths.BodyLines();
            Assert.AreEqual(4, lines.Count);
            Assert.AreEqual("Income", lines[0]);
            Assert.AreEqual("  Consulting............      2,500.00", lines[1]);
            Assert.AreEqual("Expenses", lines[2]);
            Assert.AreEqual("  Rent..................        800.00", lines[3]);
        }

        [Test]
        public void FooterShowsNetIncome()
        {
            Assert.AreEqual("Net income                    1,700.00", firstTwoMonths.Footer());
            firstTwoMonths.Style = AmountStyle.Signed;
            Assert.AreEqual("Net income                   +1,700.00", firstTwoMonths.Footer());
        }
    }
}
