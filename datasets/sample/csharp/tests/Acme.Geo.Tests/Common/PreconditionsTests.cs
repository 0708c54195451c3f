using System;
using Acme.Common;
using NUnit.Framework;

namespace Acme.Geo.Tests.Common
{
    [TestFixture]
    public class PreconditionsTests
    {
        [Test]
        public void CheckArgumentPassesWhenTrue()
        {
            Preconditions.CheckArgument(true, "never shown");
        }

        [Test]
        public void CheckArgumentThrowsWithMessageWhenFalse()
        {
            var ex = Assert.Throws<ArgumentException>(() => Preconditions.CheckArgument(false, "width is odd"));
            Assert.AreEqual("width is odd", ex.Message);
        }

        [Test]
        public void CheckNotNullReturnsSameInstance()
        {
            var value = "text";
            Assert.IsTrue(ReferenceEquals(value, Preconditions.CheckNotNull(value, "value")));
        }

        [Test]
        public void CheckNotNullNamesTheArgument()
        {
            var ex = Assert.Throws<ArgumentNullException>(() => Preconditions.CheckNotNull<string>(null, "thing"));
            Assert.AreEqual("thing", ex.ParamName);
        }

        [TestCase(0, 1)]
        [TestCase(4, 5)]
        public void CheckIndexReturnsValidIndex(int index, int size)
        {
            Assert.AreEqual(index, Preconditions.CheckIndex(index, size));
        }

        [TestCase(-1, 3)]
        [TestCase(3, 3)]
        [TestCase(0, 0)]
        public void CheckIndexRejectsOutOfRange(int index, int size)
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => Preconditions.CheckIndex(index, size));
        }

        [Test]
        public void CheckIndexRejectsNegativeSize()
        {
            Assert.Throws<ArgumentException>(() => Preconditions.CheckIndex(0, -1));
        }

        [Test]
        public void CheckPositiveReturnsValue()
        {
            Assert.AreEqual(2.5, Preconditions.CheckPositive(2.5, "radius"));
        }

        [TestCase(0.0)]
        [TestCase(-3.0)]
        [TestCase(double.NaN)]
        public void CheckPositiveRejectsZeroNegativeAndNaN(double value)
        {
            var ex = Assert.Throws<ArgumentOutOfRangeException>(() => Preconditions.CheckPositive(value, "radius"));
            Assert.AreEqual("radius", ex.ParamName);
        }
    }
}
