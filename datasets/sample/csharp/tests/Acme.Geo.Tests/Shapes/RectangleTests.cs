using System;
using System.Collections.Generic;
using Acme.Geo.Shapes;
using NUnit.Framework;

namespace Acme.Geo.Tests.Shapes
{
    [TestFixture]
    public class RectangleTests
    {
        private Rectangle rect;

        [SetUp]
        public void SetUp()
        {
            rect = new Rectangle(new Point2D(1, 1), 4, 2);
        }

        [Test]
        public void PropertiesExposeGeometry()
        {
            Assert.AreEqual(new Point2D(1, 1), rect.Corner);
            Assert.AreEqual(4.0, rect.Width);
            Assert.AreEqual(2.0, rect.Height);
            Assert.AreEqual("rectangle", rect.Name);
        }

        [Test]
        public void ConstructorValidatesSize()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => new Rectangle(Point2D.Origin, 0, 1));
            Assert.Throws<ArgumentOutOfRangeException>(() => new Rectangle(Point2D.Origin, 1, -1));
            Assert.Throws<ArgumentNullException>(() => new Rectangle(null, 1, 1));
        }

        [Test]
        public void FromCornersAcceptsAnyOrder()
        {
            Rectangle r = Rectangle.FromCorners(new Point2D(3, 4), new Point2D(1, 1));
            Assert.AreEqual(new Point2D(1, 1), r.Corner);
            Assert.AreEqual(2.0, r.Width);
            Assert.AreEqual(3.0, r.Height);
            Rectangle s = Rectangle.FromCorners(new Point2D(0, 5), new Point2D(2, 0));
            Assert.AreEqual(new Point2D(0, 0), s.Corner);
            Assert.AreEqual(5.0, s.Height);
            Assert.Throws<ArgumentOutOfRangeException>(() => Rectangle.FromCorners(new Point2D(1, 0), new Point2D(1, 5)));
        }

        [Test]
        public void IsSquareComparesSides()
        {
            Assert.IsFalse(rect.IsSquare);
            Assert.IsTrue(new Rectangle(Point2D.Origin, 0.1 + 0.2, 0.3).IsSquare);
        }

        [Test]
        public void AreaAndPerimeter()
        {
            Assert.AreEqual(8.0, rect.Area());
            Assert.AreEqual(12.0, rect.Perimeter());
        }

        [Test]
        public void BoundingBoxMatchesRectangle()
        {
            Assert.AreEqual(new BoundingBox(1, 1, 5, 3), rect.GetBoundingBox());
        }

        [Test]
        public void ContainsIncludesEdges()
        {
            Assert.IsTrue(rect.Contains(new Point2D(2, 2)));
            Assert.IsTrue(rect.Contains(new Point2D(5, 3)));
            Assert.IsFalse(rect.Contains(new Point2D(0.9, 2)));
        }

        [Test]
        public void CornersAreCounterClockwise()
        {
            IList<Point2D> corners = rect.Corners();
            Assert.AreEqual(4, corners.Count);
            Assert.AreEqual("(1, 1) (5, 1) (5, 3) (1, 3)", string.Join(" ", corners));
        }

        [Test]
        public void DiagonalIsHypotenuse()
        {
            Assert.AreEqual(5.0, new Rectangle(Point2D.Origin, 3, 4).Diagonal(), 1e-12);
        }
    }

    [TestFixture]
    public class SquareTests
    {
        [Test]
        public void SideAndName()
        {
            var square = new Square(new Point2D(2, 2), 3);
            Assert.AreEqual(3.0, square.Side);
            Assert.AreEqual(3.0, square.Height);
            Assert.AreEqual("square", square.Name);
            Assert.IsTrue(square.IsSquare);
            Assert.AreEqual(9.0, square.Area());
        }

        [Test]
        public void WithSideKeepsCorner()
        {
            var square = new Square(new Point2D(2, 2), 3);
            Square bigger = square.WithSide(5);
            Assert.AreEqual(5.0, bigger.Side);
            Assert.AreEqual(new Point2D(2, 2), bigger.Corner);
            Assert.AreEqual(3.0, square.Side);
            Assert.Throws<ArgumentOutOfRangeException>(() => square.WithSide(-2));
        }
    }
}
