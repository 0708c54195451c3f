using System;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class LedgerDateTests
    {
        [Test]
        public void ConstructorKeepsFieldsAndValidates()
        {
            var d = new LedgerDate(2024, 2, 29);
            Assert.AreEqual(2024, d.Year);
            Assert.AreEqual(2, d.Month);
            Assert.AreEqual(29, d.Day);
            Assert.Throws<ArgumentOutOfRangeException>(() => new LedgerDate(2023, 2, 29));
            Assert.Throws<ArgumentOutOfRangeException>(() => new LedgerDate(2023, 13, 1));
            Assert.Throws<ArgumentOutOfRangeException>(() => new LedgerDate(0, 1, 1));
        }

        [Test]
        public void ParseReadsIsoDates()
        {
            Assert.AreEqual(new LedgerDate(1999, 12, 31), LedgerDate.Parse(" 1999-12-31 "));
            Assert.Throws<FormatException>(() => LedgerDate.Parse("1999/12/31"));
            Assert.Throws<FormatException>(() => LedgerDate.Parse("1999-1a-31"));
            Assert.Throws<ArgumentOutOfRangeException>(() => LedgerDate.Parse("1999-04-31"));
        }

        [TestCase(2024, true)]
        [TestCase(2023, false)]
        [TestCase(1900, false)]
        [TestCase(2000, true)]
        public void IsLeapYear(int year, bool expected)
        {
            Assert.AreEqual(expected, LedgerDate.IsLeapYear(year));
        }

        [TestCase(2024, 2, 29)]
        [TestCase(2023, 2, 28)]
        [TestCase(2023, 4, 30)]
        [TestCase(2023, 12, 31)]
        [TestCase(2023, 11, 30)]
        public void DaysInMonth(int year, int month, int expected)
        {
            Assert.AreEqual(expected, LedgerDate.DaysInMonth(year, month));
        }

        [TestCase(1970, 1, 1, 0L)]
        [TestCase(2000, 3, 1, 11017L)]
        [TestCase(2024, 2, 29, 19782L)]
        [TestCase(1969, 12, 31, -1L)]
        [TestCase(1, 1, 1, -719162L)]
        public void EpochDayRoundTrip(int year, int month, int day, long epochDay)
        {
            var date = new LedgerDate(year, month, day);
            Assert.AreEqual(epochDay, date.ToEpochDay());
            Assert.AreEqual(date, LedgerDate.FromEpochDay(epochDay));
        }

        [TestCase("1970-01-01", 4)]
        [TestCase("2024-03-10", 7)]
        [TestCase("2024-03-11", 1)]
        [TestCase("1969-12-29", 1)]
        public void DayOfWeekIsIso(string date, int expected)
        {
            Assert.AreEqual(expected, LedgerDate.Parse(date).DayOfWeek());
        }

        [Test]
        public void AddDaysCrossesMonthsAndYears()
        {
            Assert.AreEqual("2024-03-01", LedgerDate.Parse("2024-02-28").AddDays(2).ToString());
            Assert.AreEqual("2023-12-31", LedgerDate.Parse("2024-01-01").AddDays(-1).ToString());
        }

        [Test]
        public void DaysUntilCountsSignedDifference()
        {
            LedgerDate a = LedgerDate.Parse("2024-01-01");
            LedgerDate b = LedgerDate.Parse("2025-01-01");
            Assert.AreEqual(366L, a.DaysUntil(b));
            Assert.AreEqual(-366L, b.DaysUntil(a));
        }

        [Test]
        public void EndOfMonthUsesMonthLength()
        {
            Assert.AreEqual(new LedgerDate(2023, 2, 28), new LedgerDate(2023, 2, 3).EndOfMonth());
            Assert.AreEqual(new LedgerDate(2024, 9, 30), new LedgerDate(2024, 9, 30).EndOfMonth());
        }

        [Test]
        public void CompareToAndIsBefore()
        {
            LedgerDate a = LedgerDate.Parse("2024-05-31");
            LedgerDate b = LedgerDate.Parse("2024-06-01");
            Assert.IsTrue(a.CompareTo(b) < 0);
            Assert.IsTrue(b.CompareTo(a) > 0);
            Assert.IsTrue(LedgerDate.Parse("2023-12-31").CompareTo(a) < 0);
            Assert.IsTrue(LedgerDate.Parse("2024-05-30").CompareTo(a) < 0);
            Assert.AreEqual(0, a.CompareTo(LedgerDate.Parse("2024-05-31")));
            Assert.IsTrue(a.IsBefore(b));
            Assert.IsFalse(b.IsBefore(a));
            Assert.IsFalse(a.IsBefore(a));
        }

        [Test]
        public void EqualsAndHashCode()
        {
            Assert.IsTrue(new LedgerDate(2024, 1, 2).Equals(new LedgerDate(2024, 1, 2)));
            Assert.IsFalse(new LedgerDate(2024, 1, 2).Equals(new LedgerDate(2024, 2, 1)));
            Assert.IsFalse(new LedgerDate(2024, 1, 2).Equals("2024-01-02"));
            Assert.AreEqual(new LedgerDate(2024, 1, 2).GetHashCode(), new LedgerDate(2024, 1, 2).GetHashCode());
            Assert.AreNotEqual(new LedgerDate(2024, 1, 2).GetHashCode(), new LedgerDate(2024, 1, 3).GetHashCode());
        }

        [TestCase(2024, 3, 9, "2024-03-09")]
        [TestCase(987, 11, 25, "0987-11-25")]
        public void ToStringPadsFields(int year, int month, int day, string expected)
        {
            Assert.AreEqual(expected, new LedgerDate(year, month, day).ToString());
        }
    }
}
