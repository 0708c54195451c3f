using System;
using Acme.Geo.Shapes;
using NUnit.Framework;

namespace Acme.Geo.Tests.Shapes
{
    [TestFixture]
    public class AbstractShapeTests
    {
        /// <summary>Minimal subclass: a segment-like shape whose exact test accepts only the box centre.</summary>
        private sealed class FlatShape : AbstractShape
        {
            public FlatShape(string name)
                : base(name)
            {
            }

            public override double Area()
            {
                return 0.0;
            }

            public override double Perimeter()
            {
                return 0.0;
            }

            public override BoundingBox GetBoundingBox()
            {
                return new BoundingBox(0, 0, 2, 2);
            }

            protected override bool ContainsPoint(Point2D point)
            {
                return point.Equals(new Point2D(1, 1));
            }
        }

        [Test]
        public void NameIsKept()
        {
            Assert.AreEqual("flat", new FlatShape("flat").Name);
            Assert.AreEqual("circle", new Circle(1).Name);
        }

        [TestCase("")]
        [TestCase("   ")]
        [TestCase(null)]
        public void BlankNameIsRejected(string name)
        {
            Assert.Throws<ArgumentException>(() => new FlatShape(name));
        }

        [Test]
        public void ContainsChecksBoxThenExactTest()
        {
            var shape = new FlatShape("flat");
            Assert.IsTrue(shape.Contains(new Point2D(1, 1)));
            Assert.IsFalse(shape.Contains(new Point2D(0.5, 1)));
            Assert.IsFalse(shape.Contains(new Point2D(5, 5)));
            Assert.Throws<ArgumentNullException>(() => shape.Contains(null));
        }

        [Test]
        public void CompareByAreaOrdersShapes()
        {
            var circle = new Circle(1);
            var square = new Square(Point2D.Origin, 1);
            Assert.AreEqual(1, circle.CompareByArea(square));
            Assert.AreEqual(-1, square.CompareByArea(circle));
            Assert.AreEqual(0, square.CompareByArea(new Rectangle(new Point2D(5, 5), 0.5, 2)));
        }

        [Test]
        public void CompactnessIsOneForCircle()
        {
            Assert.AreEqual(1.0, new Circle(new Point2D(3, 3), 2.5).Compactness(), 1e-12);
            Assert.AreEqual(Math.PI / 4, new Square(Point2D.Origin, 3).Compactness(), 1e-12);
            Assert.AreEqual(0.0, new FlatShape("flat").Compactness());
        }

        [Test]
        public void DescribeSummarisesAreaAndPerimeter()
        {
            Assert.AreEqual("circle: area 3.14, perimeter 6.28", new Circle(1).Describe());
            Assert.AreEqual("rectangle: area 6, perimeter 10", new Rectangle(Point2D.Origin, 2, 3).Describe());
            Assert.Throws<ArgumentNullException>(() => ShapeExtensions.Describe(null));
        }

        [Test]
        public void ToStringWrapsDescribeWithTypeName()
        {
            Assert.AreEqual("Circle[circle: area 3.14, perimeter 6.28]", new Circle(1).ToString());
            Assert.AreEqual("Square[square: area 4, perimeter 8]", new Square(Point2D.Origin, 2).ToString());
        }
    }
}
