using System;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class TransactionTests
    {
        private Ledger ledger;

        [SetUp]
        public void SetUp()
        {
            ledger = SampleBooks.Chart();
        }

        [Test]
        public void BuilderBuildsBalancedTransaction()
        {
            Transaction tx = new Transaction.Builder("T9", LedgerDate.Parse("2024-04-01"))
                .Description("  Split rent  ")
                .Debit(ledger.GetAccount("5000"), SampleBooks.Usd(-900))
                .Credit(ledger.GetAccount("1110"), SampleBooks.Usd(600))
                .Add(new Posting(ledger.GetAccount("2000"), SampleBooks.Usd(-300), "later"))
                .Build();
            Assert.AreEqual("T9", tx.Id);
            Assert.AreEqual(new LedgerDate(2024, 4, 1), tx.Date);
            Assert.AreEqual("Split rent", tx.Description);
            Assert.AreEqual(3, tx.Postings.Count);
            Assert.AreEqual(900L, tx.Postings[0].Amount.Cents);
            Assert.AreEqual(-600L, tx.Postings[1].Amount.Cents);
            Assert.AreEqual("later", tx.Postings[2].Memo);
        }

        [Test]
        public void BuilderRejectsEmptyId()
        {
            Assert.Throws<ArgumentException>(() => new Transaction.Builder("", LedgerDate.Parse("2024-04-01")));
        }

        [Test]
        public void DescriptionDefaultsToEmpty()
        {
            Transaction tx = new Transaction.Builder("T1", LedgerDate.Parse("2024-04-01"))
                .Description(null)
                .Debit(ledger.GetAccount("5000"), SampleBooks.Usd(1))
                .Credit(ledger.GetAccount("1110"), SampleBooks.Usd(1))
                .Build();
            Assert.AreEqual("", tx.Description);
        }

        [Test]
        public void ImbalanceSumsPostings()
        {
            var builder = new Transaction.Builder("T1", LedgerDate.Parse("2024-04-01"))
                .Debit(ledger.GetAccount("5000"), SampleBooks.Usd(500))
                .Credit(ledger.GetAccount("1110"), SampleBooks.Usd(450));
            Assert.AreEqual(50L, builder.Imbalance());
            builder.Add(new Posting(ledger.GetAccount("1110"), new Money(-50, "EUR")));
            Assert.Throws<CurrencyMismatchException>(() => builder.Imbalance());
        }

        [Test]
        public void BuildRejectsUnbalancedAndSingleLine()
        {
            var one = new Transaction.Builder("T1", LedgerDate.Parse("2024-04-01"))
                .Debit(ledger.GetAccount("5000"), SampleBooks.Usd(500));
            var e1 = Assert.Throws<LedgerException>(() => one.Build());
            Assert.AreEqual("transaction T1 needs at least two postings", e1.Message);
            one.Credit(ledger.GetAccount("1110"), SampleBooks.Usd(499));
            var e2 = Assert.Throws<UnbalancedTransactionException>(() => one.Build());
            Assert.AreEqual(1L, e2.ImbalanceCents);
        }

        [Test]
        public void TotalIsTheDebitSide()
        {
            Transaction tx = SampleBooks.Tx(ledger, "T1", "2024-01-01", "x", "1110", "3000", 12345);
            Assert.AreEqual(SampleBooks.Usd(12345), tx.Total());
        }

        [Test]
        public void InvolvesChecksAccountCodes()
        {
            Transaction tx = SampleBooks.Tx(ledger, "T1", "2024-01-01", "x", "1110", "3000", 100);
            Assert.IsTrue(tx.Involves("3000"));
            Assert.IsTrue(tx.Involves("1110"));
            Assert.IsFalse(tx.Involves("1000"));
        }

        [Test]
        public void ToStringListsPostings()
        {
            Transaction tx = SampleBooks.Tx(ledger, "T7", "2024-01-05", "Owner", "1110", "3000", 2500);
            Assert.AreEqual("2024-01-05 T7 \"Owner\"\n  Dr 1110 USD 25.00\n  Cr 3000 USD 25.00", tx.ToString());
            Transaction bare = SampleBooks.Tx(ledger, "T8", "2024-01-05", "", "1110", "3000", 1);
            Assert.AreEqual("2024-01-05 T8\n  Dr 1110 USD 0.01\n  Cr 3000 USD 0.01", bare.ToString());
        }
    }
}
