using System;
using System.Collections.Generic;
using Ledgerly.Common;
using NUnit.Framework;
using Text = Ledgerly.Common.Text;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class TextTests
    {
        [Test]
        public void RepeatBuildsRun()
        {
            Assert.AreEqual("=====", Text.Repeat('=', 5));
            Assert.AreEqual("", Text.Repeat('x', 0));
            Assert.Throws<ArgumentOutOfRangeException>(() => Text.Repeat('x', -1));
        }

        [TestCase("42", 5, '0', "00042")]
        [TestCase("12345", 3, ' ', "12345")]
        [TestCase("", 2, '*', "**")]
        public void PadLeftFillsOnTheLeft(string value, int width, char fill, string expected)
        {
            Assert.AreEqual(expected, Text.PadLeft(value, width, fill));
        }

        [TestCase("ab", 4, '.', "ab..")]
        [TestCase("abcdef", 4, '.', "abcdef")]
        public void PadRightFillsOnTheRight(string value, int width, char fill, string expected)
        {
            Assert.AreEqual(expected, Text.PadRight(value, width, fill));
        }

        [Test]
        public void IsBlankRecognisesWhitespace()
        {
            Assert.IsTrue(Text.IsBlank(null));
            Assert.IsTrue(Text.IsBlank(""));
            Assert.IsTrue(Text.IsBlank(" \t\n"));
            Assert.IsFalse(Text.IsBlank("  a "));
        }

        [Test]
        public void SplitCsvHandlesQuotes()
        {
            List<string> fields = Text.SplitCsv("a,\"b,c\",\"say \"\"hi\"\"\",");
            Assert.AreEqual(4, fields.Count);
            Assert.AreEqual("a", fields[0]);
            Assert.AreEqual("b,c", fields[1]);
            Assert.AreEqual("say \"hi\"", fields[2]);
            Assert.AreEqual("", fields[3]);
        }

        [Test]
        public void SplitCsvRejectsUnterminatedQuote()
        {
            Assert.Throws<FormatException>(() => Text.SplitCsv("a,\"b"));
        }

        [TestCase("plain", "plain")]
        [TestCase("a,b", "\"a,b\"")]
        [TestCase("say \"hi\"", "\"say \"\"hi\"\"\"")]
        public void EscapeCsvQuotesWhenNeeded(string field, string expected)
        {
            Assert.AreEqual(expected, Text.EscapeCsv(field));
        }

        [TestCase("Office Supplies & Co.", "office-supplies-co")]
        [TestCase("  --Q1 2024!! ", "q1-2024")]
        [TestCase("ABC", "abc")]
        public void SlugKeepsLettersAndDigits(string value, string expected)
        {
            Assert.AreEqual(expected, Text.Slug(value));
        }
    }
}
