using System.Collections.Generic;
using NUnit.Framework;

namespace Acme.Geo.Tests
{
    [TestFixture]
    public class BoundingBoxTests
    {
        private BoundingBox box;

        [SetUp]
        public void SetUp()
        {
            box = new BoundingBox(0, 0, 2, 1.5);
        }

        [Test]
        public void BoundsAndSize()
        {
            Assert.AreEqual(0.0, box.MinX);
            Assert.AreEqual(0.0, box.MinY);
            Assert.AreEqual(2.0, box.MaxX);
            Assert.AreEqual(1.5, box.MaxY);
            Assert.AreEqual(2.0, box.Width);
            Assert.AreEqual(1.5, box.Height);
            Assert.AreEqual(new Point2D(1.0, 0.75), box.Center);
            Assert.AreEqual(3.0, box.Area());
        }

        [Test]
        public void BoundsOfOffsetBox()
        {
            var offset = new BoundingBox(-3, 1.25, 4, 6);
            Assert.AreEqual(-3.0, offset.MinX);
            Assert.AreEqual(1.25, offset.MinY);
            Assert.AreEqual(4.0, offset.MaxX);
            Assert.AreEqual(6.0, offset.MaxY);
            Assert.AreEqual(7.0, offset.Width);
            Assert.AreEqual(4.75, offset.Height);
            Assert.AreEqual(new Point2D(0.5, 3.625), offset.Center);
        }

        [Test]
        public void ConstructorRejectsInvertedBox()
        {
            Assert.Throws<GeometryException>(() => new BoundingBox(2, 0, 1, 1));
            Assert.Throws<GeometryException>(() => new BoundingBox(0, 2, 1, 1));
        }

        [Test]
        public void OfParamsCoversAllPoints()
        {
            BoundingBox b = BoundingBox.Of(new Point2D(3, -1), new Point2D(-2, 4), new Point2D(0, 0));
            Assert.AreEqual(new BoundingBox(-2, -1, 3, 4), b);
        }

        [Test]
        public void OfEnumerableCoversAllPoints()
        {
            var points = new List<Point2D> { new Point2D(1, 1), new Point2D(5, 2) };
            Assert.AreEqual(new BoundingBox(1, 1, 5, 2), BoundingBox.Of(points));
            Assert.AreEqual(new BoundingBox(7, 8, 7, 8), BoundingBox.Of(new List<Point2D> { new Point2D(7, 8) }));
        }

        [Test]
        public void OfNoPointsFails()
        {
            var ex = Assert.Throws<GeometryException>(() => BoundingBox.Of(new List<Point2D>()));
            Assert.AreEqual("bounding box of no points", ex.Message);
            Assert.Throws<GeometryException>(() => BoundingBox.Of());
        }

        [Test]
        public void ContainsIsInclusive()
        {
            Assert.IsTrue(box.Contains(new Point2D(1, 1)));
            Assert.IsTrue(box.Contains(new Point2D(2, 1.5)));
            Assert.IsTrue(box.Contains(new Point2D(0, 0)));
            Assert.IsFalse(box.Contains(new Point2D(2.1, 1)));
            Assert.IsFalse(box.Contains(new Point2D(1, -0.1)));
        }

        [Test]
        public void IntersectsCountsTouching()
        {
            Assert.IsTrue(box.Intersects(new BoundingBox(1, 1, 3, 3)));
            Assert.IsTrue(box.Intersects(new BoundingBox(2, 1.5, 3, 3)));
            Assert.IsFalse(box.Intersects(new BoundingBox(2.5, 0, 3, 1)));
            Assert.IsFalse(box.Intersects(new BoundingBox(0, 2, 1, 3)));
        }

        [Test]
        public void UnionCoversBoth()
        {
            Assert.AreEqual(new BoundingBox(-1, 0, 2, 5), box.Union(new BoundingBox(-1, 1, 0, 5)));
        }

        [Test]
        public void ExpandGrowsAndShrinks()
        {
            Assert.AreEqual(new BoundingBox(-1, -1, 3, 2.5), box.Expand(1));
            Assert.AreEqual(new BoundingBox(0.5, 0.5, 1.5, 1), box.Expand(-0.5));
            Assert.Throws<GeometryException>(() => box.Expand(-1));
        }

        [Test]
        public void EqualityAndHash()
        {
            Assert.IsTrue(box.Equals(new BoundingBox(0, 0, 2, 1.5)));
            Assert.IsFalse(box.Equals(new BoundingBox(0, 0, 2, 1.4)));
            Assert.IsFalse(box.Equals(null));
            Assert.AreEqual(new BoundingBox(0, 0, 2, 1.5).GetHashCode(), box.GetHashCode());
            Assert.IsFalse(new BoundingBox(0, 1, 2, 3).GetHashCode() == new BoundingBox(1, 0, 2, 3).GetHashCode());
        }

        [Test]
        public void ToStringListsCorners()
        {
            Assert.AreEqual("[0, 0 .. 2, 1.5]", box.ToString());
        }
    }
}
