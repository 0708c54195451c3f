using System;
using Ledgerly.Reporting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class AmountsTests
    {
        [TestCase(0L, "0")]
        [TestCase(999L, "999")]
        [TestCase(1000L, "1,000")]
        [TestCase(1234567L, "1,234,567")]
        [TestCase(123456L, "123,456")]
        public void GroupThousandsInsertsCommas(long value, string expected)
        {
            Assert.AreEqual(expected, Amounts.GroupThousands(value));
        }

        [Test]
        public void GroupThousandsRejectsNegative()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => Amounts.GroupThousands(-1));
        }

        [TestCase(-123456L, AmountStyle.Plain, "-1234.56")]
        [TestCase(5L, AmountStyle.Plain, "0.05")]
        [TestCase(123456L, AmountStyle.Accounting, "1,234.56")]
        [TestCase(-123450L, AmountStyle.Accounting, "(1,234.50)")]
        [TestCase(100000000L, AmountStyle.Signed, "+1,000,000.00")]
        [TestCase(-7L, AmountStyle.Signed, "-0.07")]
        public void FormatAppliesStyle(long cents, AmountStyle style, string expected)
        {
            Assert.AreEqual(expected, Amounts.Format(cents, style));
        }

        [TestCase("accounting", AmountStyle.Accounting)]
        [TestCase(" Plain ", AmountStyle.Plain)]
        [TestCase("SIGNED", AmountStyle.Signed)]
        public void ParseStyleIgnoresCase(string name, AmountStyle expected)
        {
            Assert.AreEqual(expected, Amounts.ParseStyle(name));
        }

        [Test]
        public void ParseStyleRejectsUnknown()
        {
            Assert.Throws<ArgumentException>(() => Amounts.ParseStyle("fancy"));
            Assert.Throws<ArgumentException>(() => Amounts.ParseStyle("1"));
        }
    }
}
