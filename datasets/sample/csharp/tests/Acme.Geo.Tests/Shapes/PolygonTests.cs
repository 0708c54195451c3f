using System;
using Acme.Geo.Shapes;
using NUnit.Framework;

namespace Acme.Geo.Tests.Shapes
{
    [TestFixture]
    public class PolygonTests
    {
        private Polygon square;
        private Polygon triangle;
        private Polygon lShape;

        [SetUp]
        public void SetUp()
        {
            square = Polygon.Of(new Point2D(0, 0), new Point2D(4, 0), new Point2D(4, 4), new Point2D(0, 4));
            triangle = Polygon.Of(new Point2D(0, 0), new Point2D(4, 0), new Point2D(0, 3));
            lShape = new Polygon.Builder()
                .AddVertex(0, 0).AddVertex(2, 0).AddVertex(2, 1)
                .AddVertex(1, 1).AddVertex(1, 2).AddVertex(0, 2)
                .Build();
        }

        [Test]
        public void VerticesAreKeptInOrder()
        {
            Assert.AreEqual(4, square.VertexCount);
            Assert.AreEqual(3, triangle.VertexCount);
            Assert.AreEqual(new Point2D(4, 0), triangle.Vertices[1]);
            Assert.AreEqual("(0, 0) (4, 0) (0, 3)", string.Join(" ", triangle.Vertices));
        }

        [Test]
        public void VerticesAreReadOnly()
        {
            Assert.Throws<NotSupportedException>(() => square.Vertices.Add(new Point2D(9, 9)));
        }

        [Test]
        public void SignedAreaFollowsOrientation()
        {
            Assert.AreEqual(16.0, square.SignedArea());
            Polygon clockwise = Polygon.Of(new Point2D(0, 0), new Point2D(0, 4), new Point2D(4, 4), new Point2D(4, 0));
            Assert.AreEqual(-16.0, clockwise.SignedArea());
            Assert.AreEqual(16.0, clockwise.Area());
        }

        [Test]
        public void AreaUsesShoelace()
        {
            Assert.AreEqual(16.0, square.Area());
            Assert.AreEqual(6.0, triangle.Area());
            Assert.AreEqual(3.0, lShape.Area());
        }

        [Test]
        public void PerimeterSumsEdgesIncludingClosingEdge()
        {
            Assert.AreEqual(16.0, square.Perimeter(), 1e-12);
            Assert.AreEqual(12.0, triangle.Perimeter(), 1e-12);
            Assert.AreEqual(8.0, lShape.Perimeter(), 1e-12);
        }

        [Test]
        public void BoundingBoxCoversVertices()
        {
            Assert.AreEqual(new BoundingBox(0, 0, 4, 3), triangle.GetBoundingBox());
        }

        [Test]
        public void ContainsUsesRayCasting()
        {
            Assert.IsTrue(triangle.Contains(new Point2D(1, 1)));
            Assert.IsFalse(triangle.Contains(new Point2D(3, 2)));
            Assert.IsFalse(triangle.Contains(new Point2D(5, 5)));
            Assert.IsTrue(lShape.Contains(new Point2D(0.5, 1.5)));
            Assert.IsTrue(lShape.Contains(new Point2D(1.5, 0.5)));
            Assert.IsFalse(lShape.Contains(new Point2D(1.5, 1.5)));
        }

        [Test]
        public void IsConvexDetectsReflexTurns()
        {
            Assert.IsTrue(square.IsConvex);
            Assert.IsTrue(triangle.IsConvex);
            Assert.IsFalse(lShape.IsConvex);
            Polygon withCollinear = Polygon.Of(new Point2D(0, 0), new Point2D(2, 0), new Point2D(4, 0), new Point2D(4, 4));
            Assert.IsTrue(withCollinear.IsConvex);
        }

        [Test]
        public void CentroidOfSquareAndTriangle()
        {
            Point2D c = square.Centroid();
            Assert.AreEqual(2.0, c.X, 1e-12);
            Assert.AreEqual(2.0, c.Y, 1e-12);
            Point2D t = triangle.Centroid();
            Assert.AreEqual(4.0 / 3.0, t.X, 1e-12);
            Assert.AreEqual(1.0, t.Y, 1e-12);
            Point2D l = lShape.Centroid();
            Assert.AreEqual(5.0 / 6.0, l.X, 1e-12);
            Assert.AreEqual(5.0 / 6.0, l.Y, 1e-12);
        }

        [Test]
        public void CentroidOfDegeneratePolygonFails()
        {
            Polygon line = Polygon.Of(new Point2D(0, 0), new Point2D(1, 1), new Point2D(2, 2));
            Assert.Throws<GeometryException>(() => line.Centroid());
        }

        [Test]
        public void BuilderDropsConsecutiveDuplicatesAndClosingVertex()
        {
            var builder = new Polygon.Builder()
                .AddVertex(new Point2D(0, 0))
                .AddVertex(0, 0)
                .AddVertex(1, 0)
                .AddVertex(1, 1)
                .AddVertex(new Point2D(0, 0));
            Assert.AreEqual(4, builder.Count);
            Polygon p = builder.Build();
            Assert.AreEqual(3, p.VertexCount);
            Assert.AreEqual(0.5, p.Area());
        }

        [Test]
        public void BuilderRejectsTooFewVertices()
        {
            var builder = new Polygon.Builder().AddVertex(0, 0).AddVertex(1, 0).AddVertex(0, 0);
            var ex = Assert.Throws<GeometryException>(() => builder.Build());
            Assert.AreEqual("a polygon needs at least 3 distinct vertices, got 2", ex.Message);
            Assert.Throws<ArgumentNullException>(() => builder.AddVertex(null));
        }

        [Test]
        public void OfRequiresThreeVertices()
        {
            Assert.Throws<GeometryException>(() => Polygon.Of(new Point2D(0, 0), new Point2D(1, 1)));
        }
    }
}
