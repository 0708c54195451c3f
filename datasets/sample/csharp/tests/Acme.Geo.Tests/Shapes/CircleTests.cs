using System;
using Acme.Geo.Shapes;
using NUnit.Framework;

namespace Acme.Geo.Tests.Shapes
{
    [TestFixture]
    public class CircleTests
    {
        private Circle circle;

        [SetUp]
        public void SetUp()
        {
            circle = new Circle(new Point2D(1, 2), 2);
        }

        [Test]
        public void PropertiesExposeGeometry()
        {
            Assert.AreEqual(new Point2D(1, 2), circle.Center);
            Assert.AreEqual(2.0, circle.Radius);
            Assert.AreEqual(4.0, circle.Diameter);
        }

        [Test]
        public void RadiusOnlyConstructorUsesOrigin()
        {
            var c = new Circle(3);
            Assert.AreEqual(Point2D.Origin, c.Center);
            Assert.AreEqual(3.0, c.Radius);
        }

        [Test]
        public void ConstructorValidatesArguments()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => new Circle(0));
            Assert.Throws<ArgumentOutOfRangeException>(() => new Circle(Point2D.Origin, -1));
            Assert.Throws<ArgumentNullException>(() => new Circle(null, 1));
        }

        [Test]
        public void AreaAndPerimeter()
        {
            Assert.AreEqual(4 * Math.PI, circle.Area(), 1e-12);
            Assert.AreEqual(4 * Math.PI, circle.Perimeter(), 1e-12);
            Assert.AreEqual(Math.PI, new Circle(1).Area(), 1e-12);
            Assert.AreEqual(2 * Math.PI, new Circle(1).Perimeter(), 1e-12);
        }

        [Test]
        public void BoundingBoxSurroundsDisc()
        {
            Assert.AreEqual(new BoundingBox(-1, 0, 3, 4), circle.GetBoundingBox());
        }

        [Test]
        public void ContainsUsesDistance()
        {
            Assert.IsTrue(circle.Contains(new Point2D(1, 2)));
            Assert.IsTrue(circle.Contains(new Point2D(3, 2)));
            Assert.IsFalse(circle.Contains(new Point2D(2.6, 3.6)));
            Assert.IsFalse(circle.Contains(new Point2D(10, 10)));
        }

        [Test]
        public void ScaleMultipliesRadius()
        {
            Circle scaled = circle.Scale(1.5);
            Assert.AreEqual(3.0, scaled.Radius);
            Assert.AreEqual(circle.Center, scaled.Center);
            Assert.AreEqual(2.0, circle.Radius);
            Assert.Throws<ArgumentOutOfRangeException>(() => circle.Scale(0));
        }

        [Test]
        public void IntersectsWhenOverlappingOrTouching()
        {
            Assert.IsTrue(circle.Intersects(new Circle(new Point2D(4, 2), 1.5)));
            Assert.IsTrue(circle.Intersects(new Circle(new Point2D(4, 2), 1)));
            Assert.IsFalse(circle.Intersects(new Circle(new Point2D(4, 2), 0.9)));
        }
    }
}
