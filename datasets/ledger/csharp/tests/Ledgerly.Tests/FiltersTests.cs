using System;
using System.Collections.Generic;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class FiltersTests
    {
        private static readonly IFilter<int> Even = new DelegateFilter<int>(v => v % 2 == 0);
        private static readonly IFilter<int> Positive = new DelegateFilter<int>(v => v > 0);
        private Ledger ledger;

        [SetUp]
        public void SetUp()
        {
            ledger = SampleBooks.Posted();
        }

        private static string Ids(List<Transaction> transactions)
        {
            var ids = new List<string>();
            foreach (Transaction tx in transactions)
            {
                ids.Add(tx.Id);
            }
            return string.Join(",", ids);
        }

        [Test]
        public void DelegateFilterCallsPredicate()
        {
            Assert.IsTrue(Even.Accepts(4));
            Assert.IsFalse(Even.Accepts(3));
            Assert.Throws<ArgumentNullException>(() => new DelegateFilter<int>(null));
        }

        [Test]
        public void AndNeedsBoth()
        {
            IFilter<int> both = Filters.And(Even, Positive);
            Assert.IsTrue(both.Accepts(2));
            Assert.IsFalse(both.Accepts(-2));
            Assert.IsFalse(both.Accepts(3));
        }

        [Test]
        public void NotInverts()
        {
            Assert.IsTrue(Filters.Not(Even).Accepts(3));
            Assert.IsFalse(Filters.Not(Even).Accepts(4));
        }

        [Test]
        public void ApplyKeepsMatchingInOrder()
        {
            List<int> kept = Filters.Apply(new List<int> { 5, 4, -2, 8, 1 }, Filters.And(Even, Positive));
            Assert.AreEqual("4,8", string.Join(",", kept));
        }

        [Test]
        public void DateBetweenIsInclusive()
        {
            IFilter<Transaction> january = Filters.DateBetween(LedgerDate.Parse("2024-01-01"), LedgerDate.Parse("2024-02-01"));
            Assert.AreEqual("T1,T2,T3", Ids(ledger.Find(january)));
            Assert.Throws<ArgumentException>(() => Filters.DateBetween(LedgerDate.Parse("2024-02-01"), LedgerDate.Parse("2024-01-01")));
        }

        [Test]
        public void InvolvingMatchesAccount()
        {
            Assert.AreEqual("T1,T2,T3", Ids(ledger.Find(Filters.Involving("1110"))));
            Assert.AreEqual("T4", Ids(ledger.Find(Filters.Involving("2000"))));
        }

        [Test]
        public void DescriptionContainsIgnoresCase()
        {
            Assert.AreEqual("T1,T2", Ids(ledger.Find(Filters.DescriptionContains("IN"))));
            Assert.AreEqual("T3", Ids(ledger.Find(Filters.DescriptionContains("rent"))));
        }
    }
}
