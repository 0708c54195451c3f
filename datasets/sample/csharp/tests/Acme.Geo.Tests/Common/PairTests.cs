using Acme.Common;
using NUnit.Framework;

namespace Acme.Geo.Tests.Common
{
    [TestFixture]
    public class PairTests
    {
        [Test]
        public void OfKeepsBothValues()
        {
            Pair<int, string> pair = Pairs.Of(1, "one");
            Assert.AreEqual(1, pair.First);
            Assert.AreEqual("one", pair.Second);
        }

        [Test]
        public void SwapExchangesValues()
        {
            Pair<string, int> swapped = Pairs.Of(1, "one").Swap();
            Assert.AreEqual("one", swapped.First);
            Assert.AreEqual(1, swapped.Second);
        }

        [Test]
        public void WithSecondReplacesOnlySecond()
        {
            Pair<int, double> pair = Pairs.Of(7, "x").WithSecond(2.5);
            Assert.AreEqual(7, pair.First);
            Assert.AreEqual(2.5, pair.Second);
        }

        [Test]
        public void EqualsComparesValues()
        {
            Assert.IsTrue(Pairs.Of(1, "a").Equals(new Pair<int, string>(1, "a")));
            Assert.IsFalse(Pairs.Of(1, "a").Equals(Pairs.Of(1, "b")));
            Assert.IsFalse(Pairs.Of(1, "a").Equals(Pairs.Of(2, "a")));
            Assert.IsFalse(Pairs.Of(1, "a").Equals(null));
            Assert.IsFalse(Pairs.Of(1, "a").Equals("(1, a)"));
        }

        [Test]
        public void EqualsHandlesNullMembers()
        {
            Assert.IsTrue(new Pair<string, string>(null, "b").Equals(new Pair<string, string>(null, "b")));
            Assert.IsFalse(new Pair<string, string>(null, "b").Equals(new Pair<string, string>("a", "b")));
        }

        [Test]
        public void HashCodeCombinesInOrder()
        {
            Assert.AreEqual(Pairs.Of(1, 2).GetHashCode(), Pairs.Of(1, 2).GetHashCode());
            Assert.AreEqual(31 * 1 + 2, Pairs.Of(1, 2).GetHashCode());
            Assert.AreEqual(31 * 2 + 1, Pairs.Of(2, 1).GetHashCode());
            Assert.AreEqual(0, new Pair<string, string>(null, null).GetHashCode());
        }

        [Test]
        public void ToStringShowsBothValuesAndNull()
        {
            Assert.AreEqual("(1, one)", Pairs.Of(1, "one").ToString());
            Assert.AreEqual("(null, x)", new Pair<string, string>(null, "x").ToString());
        }
    }
}
