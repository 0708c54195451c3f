using System;
using System.Collections.Generic;
using Acme.Common;
using Acme.Geo.Measure;
using NUnit.Framework;

namespace Acme.Geo.Tests.Common
{
    [TestFixture]
    public class CollectionUtilsTests
    {
        [Test]
        public void MaxFindsLargest()
        {
            Assert.AreEqual(9, CollectionUtils.Max(new List<int> { 3, 9, 2 }));
            Assert.AreEqual("pear", CollectionUtils.Max(new[] { "apple", "pear", "fig" }));
        }

        [Test]
        public void MaxKeepsFirstOnTies()
        {
            var meters = new Length(1000, LengthUnit.Meter);
            var kilometer = new Length(1, LengthUnit.Kilometer);
            Assert.IsTrue(ReferenceEquals(meters, CollectionUtils.Max(new[] { meters, kilometer })));
        }

        [Test]
        public void MaxRejectsEmptyAndNull()
        {
            Assert.Throws<InvalidOperationException>(() => CollectionUtils.Max(new List<int>()));
            Assert.Throws<ArgumentNullException>(() => CollectionUtils.Max<string>(null));
        }

        [Test]
        public void PartitionSplitsIntoChunks()
        {
            IList<IList<int>> chunks = CollectionUtils.Partition(new List<int> { 1, 2, 3, 4, 5 }, 2);
            Assert.AreEqual(3, chunks.Count);
            Assert.AreEqual("1,2", string.Join(",", chunks[0]));
            Assert.AreEqual("3,4", string.Join(",", chunks[1]));
            Assert.AreEqual("5", string.Join(",", chunks[2]));
        }

        [Test]
        public void PartitionOfEmptyListIsEmpty()
        {
            Assert.AreEqual(0, CollectionUtils.Partition(new List<int>(), 3).Count);
        }

        [Test]
        public void PartitionRejectsNonPositiveSize()
        {
            Assert.Throws<ArgumentException>(() => CollectionUtils.Partition(new List<int> { 1 }, 0));
        }

        [Test]
        public void ReversedReturnsNewList()
        {
            var items = new List<string> { "a", "b", "c" };
            IList<string> reversed = CollectionUtils.Reversed(items);
            Assert.AreEqual("c,b,a", string.Join(",", reversed));
            Assert.AreEqual("a,b,c", string.Join(",", items));
        }

        [Test]
        public void CountMatchingCountsAccepted()
        {
            var numbers = new List<int> { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
            Assert.AreEqual(5, CollectionUtils.CountMatching(numbers, n => n % 2 == 0));
            Assert.AreEqual(0, CollectionUtils.CountMatching(numbers, n => n > 10));
        }

        [Test]
        public void CountMatchingRejectsNullPredicate()
        {
            Assert.Throws<ArgumentNullException>(() => CollectionUtils.CountMatching(new[] { 1 }, null));
        }

        [Test]
        public void GroupByCollectsInOrder()
        {
            IDictionary<int, IList<string>> groups =
                CollectionUtils.GroupBy(new[] { "a", "bb", "c", "dd", "eee" }, s => s.Length);
            Assert.AreEqual(3, groups.Count);
            Assert.AreEqual("a,c", string.Join(",", groups[1]));
            Assert.AreEqual("bb,dd", string.Join(",", groups[2]));
            Assert.AreEqual("eee", string.Join(",", groups[3]));
        }

        [Test]
        public void SumCompensatesRoundingError()
        {
            var values = new double[10];
            for (int i = 0; i < values.Length; i++)
            {
                values[i] = 0.1;
            }
            Assert.AreEqual(1.0, CollectionUtils.Sum(values));
            Assert.AreEqual(0.0, CollectionUtils.Sum(new double[0]));
            Assert.AreEqual(-1.5, CollectionUtils.Sum(new[] { 1.0, -2.5 }));
        }
    }
}
