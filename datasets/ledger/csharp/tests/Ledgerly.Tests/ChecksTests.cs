using System;
using Ledgerly.Common;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class ChecksTests
    {
        [Test]
        public void RequireNonEmptyTrimsAndRejectsBlank()
        {
            Assert.AreEqual("Cash", Checks.RequireNonEmpty("  Cash ", "name"));
            var e = Assert.Throws<ArgumentException>(() => Checks.RequireNonEmpty("   ", "name"));
            Assert.IsTrue(e.Message.StartsWith("name must not be empty"));
        }

        [Test]
        public void RequirePositiveReturnsValue()
        {
            Assert.AreEqual(7, Checks.RequirePositive(7, "size"));
            Assert.Throws<ArgumentOutOfRangeException>(() => Checks.RequirePositive(0, "size"));
        }

        [TestCase("7992739871", 3)]
        [TestCase("1000", 9)]
        [TestCase("0", 0)]
        public void LuhnDigitMatchesKnownValues(string digits, int expected)
        {
            Assert.AreEqual(expected, Checks.LuhnDigit(digits));
        }

        [Test]
        public void LuhnDigitRejectsLetters()
        {
            Assert.Throws<ArgumentException>(() => Checks.LuhnDigit("12a4"));
        }

        [TestCase("1000", true)]
        [TestCase("5999", true)]
        [TestCase("6000", false)]
        [TestCase("0100", false)]
        [TestCase("100", false)]
        [TestCase("10a0", false)]
        [TestCase(null, false)]
        public void IsValidAccountCodeChecksShape(string code, bool expected)
        {
            Assert.AreEqual(expected, Checks.IsValidAccountCode(code));
        }
    }
}
