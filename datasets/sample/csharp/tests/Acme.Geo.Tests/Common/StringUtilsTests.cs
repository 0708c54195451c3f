using System;
using Acme.Common;
using NUnit.Framework;

namespace Acme.Geo.Tests.Common
{
    [TestFixture]
    public class StringUtilsTests
    {
        [Test]
        public void IsBlankDetectsWhitespaceOnly()
        {
            Assert.IsTrue(StringUtils.IsBlank(null));
            Assert.IsTrue(StringUtils.IsBlank(""));
            Assert.IsTrue(StringUtils.IsBlank(" \t\n"));
            Assert.IsFalse(StringUtils.IsBlank(" a "));
        }

        [Test]
        public void RepeatConcatenates()
        {
            Assert.AreEqual("ababab", StringUtils.Repeat("ab", 3));
            Assert.AreEqual("", StringUtils.Repeat("ab", 0));
        }

        [Test]
        public void RepeatRejectsNegativeCount()
        {
            Assert.Throws<ArgumentException>(() => StringUtils.Repeat("ab", -1));
        }

        [TestCase("7", 3, '0', "007")]
        [TestCase("1234", 3, '0', "1234")]
        [TestCase("ab", 4, '*', "**ab")]
        public void PadLeftFillsToWidth(string text, int width, char pad, string expected)
        {
            Assert.AreEqual(expected, StringUtils.PadLeft(text, width, pad));
        }

        [Test]
        public void CapitalizeUppercasesFirstLetterOnly()
        {
            Assert.AreEqual("Hello world", StringUtils.Capitalize("hello world"));
            Assert.AreEqual("ABC", StringUtils.Capitalize("aBC"));
            Assert.AreEqual("", StringUtils.Capitalize(""));
            Assert.IsTrue(StringUtils.Capitalize(null) == null);
        }

        [Test]
        public void JoinWritesNullAndInvariantNumbers()
        {
            Assert.AreEqual("1, null, x, 2.5", StringUtils.Join(", ", new object[] { 1, null, "x", 2.5 }));
            Assert.AreEqual("", StringUtils.Join("-", new int[0]));
            Assert.AreEqual("3", StringUtils.Join("-", new[] { 3 }));
        }

        [TestCase("BoundingBox", "bounding_box")]
        [TestCase("parseXML", "parse_xml")]
        [TestCase("already_snake", "already_snake")]
        [TestCase("URL", "url")]
        public void ToSnakeCaseSplitsWords(string text, string expected)
        {
            Assert.AreEqual(expected, StringUtils.ToSnakeCase(text));
        }

        [TestCase(2.5, 0, "3")]
        [TestCase(-2.5, 0, "-3")]
        [TestCase(1.25, 1, "1.3")]
        [TestCase(3.0, 2, "3")]
        [TestCase(2.50, 2, "2.5")]
        [TestCase(-0.0001, 2, "0")]
        [TestCase(1234567.891, 2, "1234567.89")]
        [TestCase(0.1 + 0.2, 3, "0.3")]
        public void FormatNumberRoundsHalfAwayAndTrims(double value, int decimals, string expected)
        {
            Assert.AreEqual(expected, StringUtils.FormatNumber(value, decimals));
        }

        [Test]
        public void FormatNumberKeepsNaN()
        {
            Assert.AreEqual("NaN", StringUtils.FormatNumber(double.NaN, 2));
        }

        [Test]
        public void FormatNumberRejectsNegativeDecimals()
        {
            Assert.Throws<ArgumentException>(() => StringUtils.FormatNumber(1.0, -1));
        }
    }
}
