using Ledgerly.Common;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class PairTests
    {
        [Test]
        public void ConstructorKeepsBothValues()
        {
            var pair = new Pair<string, int>("cash", 3);
            Assert.AreEqual("cash", pair.First);
            Assert.AreEqual(3, pair.Second);
        }

        [Test]
        public void OfInfersTypes()
        {
            Pair<string, long> pair = Pair.Of("rent", 800L);
            Assert.AreEqual("rent", pair.First);
            Assert.AreEqual(800L, pair.Second);
        }

        [Test]
        public void SwapExchangesValues()
        {
            Pair<int, string> swapped = Pair.Of("a", 1).Swap();
            Assert.AreEqual(1, swapped.First);
            Assert.AreEqual("a", swapped.Second);
        }

        [Test]
        public void EqualsComparesValues()
        {
            Assert.IsTrue(Pair.Of("a", 1).Equals(Pair.Of("a", 1)));
            Assert.IsFalse(Pair.Of("a", 1).Equals(Pair.Of("a", 2)));
            Assert.IsFalse(Pair.Of("a", 1).Equals("a"));
            Assert.IsTrue(Pair.Of<string, string>(null, "x").Equals(Pair.Of<string, string>(null, "x")));
        }

        [Test]
        public void GetHashCodeFollowsValues()
        {
            Assert.AreEqual(Pair.Of("a", 1).GetHashCode(), Pair.Of("a", 1).GetHashCode());
            Assert.AreNotEqual(Pair.Of("a", 1).GetHashCode(), Pair.Of("a", 2).GetHashCode());
        }

        [Test]
        public void ToStringShowsBothValues()
        {
            Assert.AreEqual("(x, 2)", Pair.Of("x", 2).ToString());
        }
    }
}
