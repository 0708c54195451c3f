using System;
using Ledgerly.Accounting;
using Ledgerly.Formats;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class ExceptionTests
    {
        [Test]
        public void LedgerExceptionKeepsMessageAndCause()
        {
            var inner = new InvalidOperationException("inner");
            Assert.AreEqual("plain", new LedgerException("plain").Message);
            var e = new LedgerException("outer", inner);
            Assert.AreEqual("outer", e.Message);
            Assert.AreSame(inner, e.InnerException);
        }

        [Test]
        public void UnbalancedTransactionExceptionCarriesDetails()
        {
            var e = new UnbalancedTransactionException("T5", -250);
            Assert.AreEqual("T5", e.TransactionId);
            Assert.AreEqual(-250L, e.ImbalanceCents);
            Assert.AreEqual("transaction T5 is off by -250 cents", e.Message);
            Assert.IsTrue(e is LedgerException);
        }

        [Test]
        public void UnknownAccountExceptionCarriesCode()
        {
            var e = new UnknownAccountException("4999");
            Assert.AreEqual("4999", e.AccountCode);
            Assert.AreEqual("unknown account: 4999", e.Message);
        }

        [Test]
        public void CurrencyMismatchExceptionNamesBoth()
        {
            Assert.AreEqual("currency mismatch: expected USD but got JPY", new CurrencyMismatchException("USD", "JPY").Message);
        }

        [Test]
        public void LedgerFormatExceptionPrefixesLine()
        {
            var e = new LedgerFormatException(12, "bad amount");
            Assert.AreEqual(12, e.LineNumber);
            Assert.AreEqual("line 12: bad amount", e.Message);
            var inner = new FormatException("x");
            var withCause = new LedgerFormatException(3, "bad", inner);
            Assert.AreEqual(3, withCause.LineNumber);
            Assert.AreEqual("line 3: bad", withCause.Message);
            Assert.AreSame(inner, withCause.InnerException);
        }
    }
}
