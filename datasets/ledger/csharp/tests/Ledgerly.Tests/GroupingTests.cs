using System;
using System.Collections.Generic;
using Ledgerly.Common;
using NUnit.Framework;

namespace Ledgerly.Tests
{
    [TestFixture]
    public class GroupingTests
    {
        [Test]
        public void GroupByCollectsItemsPerKey()
        {
            var words = new List<string> { "rent", "rates", "sales", "rent", "salary" };
            Dictionary<char, List<string>> groups = Grouping.GroupBy(words, w => w[0]);
            Assert.AreEqual(2, groups.Count);
            Assert.AreEqual("rent,rates,rent", string.Join(",", groups['r']));
            Assert.AreEqual("sales,salary", string.Join(",", groups['s']));
        }

        [Test]
        public void SumByAddsProjectedValues()
        {
            var amounts = new List<int> { 5, 10, 20 };
            Assert.AreEqual(350L, Grouping.SumBy(amounts, v => v * 10L));
            Assert.AreEqual(0L, Grouping.SumBy(new List<int>(), v => (long)v));
        }

        [Test]
        public void ChunkSplitsIntoFixedSizes()
        {
            var items = new List<int> { 1, 2, 3, 4, 5, 6, 7 };
            List<List<int>> chunks = Grouping.Chunk(items, 3);
            Assert.AreEqual(3, chunks.Count);
            Assert.AreEqual("1,2,3", string.Join(",", chunks[0]));
            Assert.AreEqual("4,5,6", string.Join(",", chunks[1]));
            Assert.AreEqual("7", string.Join(",", chunks[2]));
            Assert.Throws<ArgumentOutOfRangeException>(() => Grouping.Chunk(items, 0));
        }
    }
}
