using System;
using System.Collections.Generic;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class MoneyTests
    {
        [Test]
        public void ConstructorKeepsCentsAndCurrency()
        {
            var m = new Money(-1205, "EUR");
            Assert.AreEqual(-1205L, m.Cents);
            Assert.AreEqual("EUR", m.Currency);
        }

        [TestCase("usd")]
        [TestCase("US")]
        [TestCase("U5D")]
        [TestCase(null)]
        public void ConstructorRejectsBadCurrency(string currency)
        {
            Assert.Throws<ArgumentException>(() => new Money(1, currency));
        }

        [Test]
        public void ZeroAndSignFlags()
        {
            Money zero = Money.Zero("GBP");
            Assert.AreEqual(0L, zero.Cents);
            Assert.AreEqual("GBP", zero.Currency);
            Assert.IsTrue(zero.IsZero);
            Assert.IsFalse(new Money(3, "GBP").IsZero);
            Assert.IsTrue(new Money(-3, "GBP").IsNegative);
            Assert.IsFalse(new Money(0, "GBP").IsNegative);
        }

        [Test]
        public void OfCombinesUnitsAndCents()
        {
            Assert.AreEqual(1234L, Money.Of("USD", 12, 34).Cents);
            Assert.AreEqual(-1234L, Money.Of("USD", -12, 34).Cents);
            Assert.Throws<ArgumentOutOfRangeException>(() => Money.Of("USD", 1, 100));
        }

        [TestCase("12.34", 1234L)]
        [TestCase("-12.5", -1250L)]
        [TestCase("+7", 700L)]
        [TestCase("1,234.07", 123407L)]
        [TestCase(" .99 ", 99L)]
        public void ParseCentsReadsDecimals(string text, long expected)
        {
            Assert.AreEqual(expected, Money.ParseCents(text));
        }

        [TestCase("")]
        [TestCase("-")]
        [TestCase("1.234")]
        [TestCase("12a")]
        [TestCase("1.2.3")]
        public void ParseCentsRejectsMalformed(string text)
        {
            Assert.Throws<FormatException>(() => Money.ParseCents(text));
        }

        [Test]
        public void ParseReadsCurrencyAndAmount()
        {
            Money m = Money.Parse("CHF -0.05");
            Assert.AreEqual("CHF", m.Currency);
            Assert.AreEqual(-5L, m.Cents);
            Assert.Throws<FormatException>(() => Money.Parse("CHF5"));
        }

        [Test]
        public void RequireSameCurrencyThrowsOnMismatch()
        {
            new Money(1, "USD").RequireSameCurrency(new Money(2, "USD"));
            var e = Assert.Throws<CurrencyMismatchException>(() => new Money(1, "USD").RequireSameCurrency(new Money(2, "EUR")));
            Assert.AreEqual("currency mismatch: expected USD but got EUR", e.Message);
        }

        [Test]
        public void AddAndSubtract()
        {
            Assert.AreEqual(new Money(150, "USD"), new Money(100, "USD").Add(new Money(50, "USD")));
            Assert.AreEqual(new Money(-25, "USD"), new Money(25, "USD").Subtract(new Money(50, "USD")));
            Assert.Throws<CurrencyMismatchException>(() => new Money(1, "USD").Add(new Money(1, "EUR")));
            Assert.Throws<CurrencyMismatchException>(() => new Money(1, "USD").Subtract(new Money(1, "EUR")));
        }

        [Test]
        public void NegateAndAbs()
        {
            Assert.AreEqual(-42L, new Money(42, "USD").Negate().Cents);
            Assert.AreEqual(42L, new Money(-42, "USD").Abs().Cents);
            Assert.AreEqual(42L, new Money(42, "USD").Abs().Cents);
        }

        [Test]
        public void MultiplyByInteger()
        {
            Assert.AreEqual(-369L, new Money(123, "USD").Multiply(-3).Cents);
        }

        [TestCase(1000L, 0.075, 75L)]
        [TestCase(5L, 0.5, 3L)]
        [TestCase(-5L, 0.5, -3L)]
        [TestCase(15L, 0.5, 8L)]
        public void MultiplyByRateRoundsHalfAwayFromZero(long cents, double rate, long expected)
        {
            Assert.AreEqual(expected, new Money(cents, "USD").Multiply(rate).Cents);
        }

        [Test]
        public void AllocateSpreadsRemainderOverFirstParts()
        {
            List<Money> parts = new Money(1000, "USD").Allocate(3);
            Assert.AreEqual(3, parts.Count);
            Assert.AreEqual(334L, parts[0].Cents);
            Assert.AreEqual(333L, parts[1].Cents);
            Assert.AreEqual(333L, parts[2].Cents);
            List<Money> negative = new Money(-5, "USD").Allocate(2);
            Assert.AreEqual(-3L, negative[0].Cents);
            Assert.AreEqual(-2L, negative[1].Cents);
            Assert.Throws<ArgumentOutOfRangeException>(() => new Money(5, "USD").Allocate(0));
        }

        [TestCase(123405L, "1234.05")]
        [TestCase(-7L, "-0.07")]
        [TestCase(10L, "0.10")]
        [TestCase(0L, "0.00")]
        public void ToPlainStringFormatsCents(long cents, string expected)
        {
            Assert.AreEqual(expected, new Money(cents, "USD").ToPlainString());
        }

        [Test]
        public void CompareToOrdersByCents()
        {
            Assert.IsTrue(new Money(1, "USD").CompareTo(new Money(2, "USD")) < 0);
            Assert.IsTrue(new Money(3, "USD").CompareTo(new Money(2, "USD")) > 0);
            Assert.AreEqual(0, new Money(2, "USD").CompareTo(new Money(2, "USD")));
            Assert.Throws<CurrencyMismatchException>(() => new Money(1, "USD").CompareTo(new Money(1, "EUR")));
        }

        [Test]
        public void EqualsNeedsSameCentsAndCurrency()
        {
            Assert.IsTrue(new Money(5, "USD").Equals(new Money(5, "USD")));
            Assert.IsFalse(new Money(5, "USD").Equals(new Money(5, "EUR")));
            Assert.IsFalse(new Money(5, "USD").Equals(new Money(6, "USD")));
            Assert.IsFalse(new Money(5, "USD").Equals(null));
        }

        [Test]
        public void GetHashCodeFollowsValue()
        {
            Assert.AreEqual(new Money(5, "USD").GetHashCode(), new Money(5, "USD").GetHashCode());
            Assert.AreNotEqual(new Money(5, "USD").GetHashCode(), new Money(6, "USD").GetHashCode());
            var set = new HashSet<Money> { new Money(5, "USD"), new Money(5, "USD"), new Money(7, "USD") };
            Assert.AreEqual(2, set.Count);
        }

        [Test]
        public void ToStringShowsCurrencyFirst()
        {
            Assert.AreEqual("USD -12.30", new Money(-1230, "USD").ToString());
        }
    }
}
