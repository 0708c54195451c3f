using System;
using Ledgerly.Accounting;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class AccountTests
    {
        private Account assets;
        private Account bank;
        private Account checking;

        [SetUp]
        public void SetUp()
        {
            assets = new Account("1000", "Assets", AccountType.Asset);
            bank = new Account("1100", " Bank ", AccountType.Asset, assets);
            checking = new Account("1110", "Checking", AccountType.Asset, bank);
        }

        [Test]
        public void ConstructorsKeepFields()
        {
            Assert.AreEqual("1000", assets.Code);
            Assert.AreEqual("Assets", assets.Name);
            Assert.AreEqual(AccountType.Asset, assets.Type);
            Assert.IsTrue(assets.Parent == null);
            Assert.AreEqual("Bank", bank.Name);
            Assert.AreSame(bank, checking.Parent);
        }

        [Test]
        public void ConstructorValidates()
        {
            Assert.Throws<ArgumentException>(() => new Account("9000", "Bad", AccountType.Asset));
            Assert.Throws<ArgumentException>(() => new Account("2000", " ", AccountType.Liability));
            Assert.Throws<ArgumentException>(() => new Account("2100", "Loan", AccountType.Liability, assets));
        }

        [Test]
        public void DepthCountsAncestors()
        {
            Assert.AreEqual(0, assets.Depth);
            Assert.AreEqual(2, checking.Depth);
        }

        [Test]
        public void PathJoinsNamesFromRoot()
        {
            Assert.AreEqual("Assets:Bank:Checking", checking.Path);
            Assert.AreEqual("Assets", assets.Path);
        }

        [Test]
        public void IsDescendantOfWalksUp()
        {
            Assert.IsTrue(checking.IsDescendantOf(assets));
            Assert.IsTrue(checking.IsDescendantOf(bank));
            Assert.IsFalse(assets.IsDescendantOf(checking));
            Assert.IsFalse(bank.IsDescendantOf(bank));
        }

        [Test]
        public void EqualityIsByCode()
        {
            var other = new Account("1000", "Other name", AccountType.Asset);
            Assert.IsTrue(assets.Equals(other));
            Assert.IsFalse(assets.Equals(bank));
            Assert.IsFalse(assets.Equals("1000"));
            Assert.AreEqual(assets.GetHashCode(), other.GetHashCode());
            Assert.AreEqual("1000".GetHashCode(), assets.GetHashCode());
        }

        [Test]
        public void ToStringShowsCodeAndName()
        {
            Assert.AreEqual("1110 Checking", checking.ToString());
        }
    }
}
