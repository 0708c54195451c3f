using System;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class AccountTypesTests
    {
        [TestCase(AccountType.Asset, 'A')]
        [TestCase(AccountType.Liability, 'L')]
        [TestCase(AccountType.Equity, 'E')]
        [TestCase(AccountType.Income, 'I')]
        [TestCase(AccountType.Expense, 'X')]
        public void CodeAndFromCodeRoundTrip(AccountType type, char code)
        {
            Assert.AreEqual(code, type.Code());
            Assert.AreEqual(type, AccountTypes.FromCode(code));
        }

        [Test]
        public void FromCodeIgnoresCaseAndRejectsUnknown()
        {
            Assert.AreEqual(AccountType.Expense, AccountTypes.FromCode('x'));
            Assert.Throws<ArgumentException>(() => AccountTypes.FromCode('Q'));
        }

        [TestCase(AccountType.Asset, true, 1)]
        [TestCase(AccountType.Expense, true, 1)]
        [TestCase(AccountType.Liability, false, -1)]
        [TestCase(AccountType.Equity, false, -1)]
        [TestCase(AccountType.Income, false, -1)]
        public void DebitNormalAndSign(AccountType type, bool debitNormal, int sign)
        {
            Assert.AreEqual(debitNormal, type.IsDebitNormal());
            Assert.AreEqual(sign, type.NormalSign());
        }

        [TestCase(AccountType.Asset, true)]
        [TestCase(AccountType.Liability, true)]
        [TestCase(AccountType.Equity, true)]
        [TestCase(AccountType.Income, false)]
        [TestCase(AccountType.Expense, false)]
        public void IsBalanceSheet(AccountType type, bool expected)
        {
            Assert.AreEqual(expected, type.IsBalanceSheet());
        }
    }
}
