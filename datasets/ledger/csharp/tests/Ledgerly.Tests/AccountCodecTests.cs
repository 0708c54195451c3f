using System;
using Ledgerly.Accounting;
using Ledgerly.Formats;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class AccountCodecTests
    {
        private Ledger ledger;
        private AccountCodec codec;

        [SetUp]
        public void SetUp()
        {
            ledger = SampleBooks.Chart();
            codec = new AccountCodec(ledger);
        }

        [Test]
        public void EncodeWritesFourFields()
        {
            Assert.AreEqual("1110;Checking;A;1100", codec.Encode(ledger.GetAccount("1110")));
            Assert.AreEqual("5000;Rent;X;", codec.Encode(ledger.GetAccount("5000")));
            Assert.Throws<ArgumentException>(() => codec.Encode(new Account("5200", "Tax;VAT", AccountType.Expense)));
        }

        [Test]
        public void DecodeResolvesParent()
        {
            Account a = codec.Decode("1120;Savings;a;1100");
            Assert.AreEqual("1120", a.Code);
            Assert.AreEqual("Savings", a.Name);
            Assert.AreEqual(AccountType.Asset, a.Type);
            Assert.AreEqual("1100", a.Parent.Code);
            Assert.IsTrue(codec.Decode("2100;Loans;L;").Parent == null);
        }

        [Test]
        public void DecodeRejectsMalformedLines()
        {
            Assert.Throws<FormatException>(() => codec.Decode("1120;Savings;A"));
            Assert.Throws<FormatException>(() => codec.Decode("1120;Savings;AX;"));
            Assert.Throws<UnknownAccountException>(() => codec.Decode("1120;Savings;A;1999"));
        }
    }
}
