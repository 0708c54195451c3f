using System;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class PostingTests
    {
        private readonly Account rent = new Account("5000", "Rent", AccountType.Expense);

        [Test]
        public void ConstructorKeepsFields()
        {
            var p = new Posting(rent, SampleBooks.Usd(800), "March");
            Assert.AreSame(rent, p.Account);
            Assert.AreEqual(800L, p.Amount.Cents);
            Assert.AreEqual("March", p.Memo);
        }

        [Test]
        public void ShortConstructorHasEmptyMemo()
        {
            Assert.AreEqual("", new Posting(rent, SampleBooks.Usd(1)).Memo);
            Assert.AreEqual("", new Posting(rent, SampleBooks.Usd(1), null).Memo);
        }

        [Test]
        public void ZeroAmountIsRejected()
        {
            Assert.Throws<ArgumentException>(() => new Posting(rent, SampleBooks.Usd(0)));
        }

        [Test]
        public void IsDebitFollowsSign()
        {
            Assert.IsTrue(new Posting(rent, SampleBooks.Usd(5)).IsDebit);
            Assert.IsFalse(new Posting(rent, SampleBooks.Usd(-5)).IsDebit);
        }

        [Test]
        public void ToStringShowsSideAndMemo()
        {
            Assert.AreEqual("Dr 5000 USD 8.00 (March)", new Posting(rent, SampleBooks.Usd(800), "March").ToString());
            Assert.AreEqual("Cr 5000 USD 0.05", new Posting(rent, SampleBooks.Usd(-5)).ToString());
        }
    }
}
