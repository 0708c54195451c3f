using System;
using NUnit.Framework;

namespace Acme.Geo.Tests
{
    [TestFixture]
    public class Point2DTests
    {
        private Point2D p;

        [SetUp]
        public void SetUp()
        {
            p = new Point2D(1.5, -2.0);
        }

        [Test]
        public void CoordinatesAreExposed()
        {
            Assert.AreEqual(1.5, p.X);
            Assert.AreEqual(-2.0, p.Y);
            Assert.AreEqual(0.0, Point2D.Origin.X);
            Assert.AreEqual(0.0, Point2D.Origin.Y);
        }

        [Test]
        public void ConstructorRejectsNaN()
        {
            Assert.Throws<ArgumentException>(() => new Point2D(double.NaN, 0));
            Assert.Throws<ArgumentException>(() => new Point2D(0, double.NaN));
        }

        [Test]
        public void DistanceToIsEuclidean()
        {
            Assert.AreEqual(5.0, new Point2D(0, 0).DistanceTo(new Point2D(3, 4)), 1e-12);
            Assert.AreEqual(5.0, new Point2D(3, 4).DistanceTo(new Point2D(0, 0)), 1e-12);
            Assert.Throws<ArgumentNullException>(() => p.DistanceTo(null));
        }

        [Test]
        public void TranslateByOffsets()
        {
            Assert.AreEqual(new Point2D(2.5, 1.0), p.Translate(1.0, 3.0));
        }

        [Test]
        public void TranslateByVector()
        {
            Assert.AreEqual(new Point2D(4.5, -6.0), p.Translate(new Vector2D(3.0, -4.0)));
            Assert.Throws<ArgumentNullException>(() => p.Translate(null));
        }

        [Test]
        public void MidpointAveragesCoordinates()
        {
            Assert.AreEqual(new Point2D(2.0, 3.0), new Point2D(0, 2).Midpoint(new Point2D(4, 4)));
        }

        [Test]
        public void VectorToPointsFromThisToOther()
        {
            Assert.AreEqual(new Vector2D(3.0, 6.0), p.VectorTo(new Point2D(4.5, 4.0)));
        }

        [Test]
        public void RotateCounterClockwiseAroundPivot()
        {
            Point2D r = new Point2D(2, 1).Rotate(new Point2D(1, 1), 90);
            Assert.AreEqual(1.0, r.X, 1e-12);
            Assert.AreEqual(2.0, r.Y, 1e-12);
            Point2D half = new Point2D(1, 0).Rotate(Point2D.Origin, 180);
            Assert.AreEqual(-1.0, half.X, 1e-12);
            Assert.AreEqual(0.0, half.Y, 1e-12);
        }

        [TestCase("(1.5, -2)", 1.5, -2.0)]
        [TestCase("3,4", 3.0, 4.0)]
        [TestCase("  ( 0.25 ,1e2 ) ", 0.25, 100.0)]
        public void ParseReadsBothForms(string text, double x, double y)
        {
            Assert.AreEqual(new Point2D(x, y), Point2D.Parse(text));
        }

        [Test]
        public void ParseRejectsWrongArity()
        {
            var ex = Assert.Throws<GeometryException>(() => Point2D.Parse("1;2"));
            Assert.AreEqual("expected two coordinates in '1;2'", ex.Message);
        }

        [Test]
        public void ParseWrapsNumberErrors()
        {
            var ex = Assert.Throws<GeometryException>(() => Point2D.Parse("(a, 2)"));
            Assert.AreEqual("invalid coordinate in '(a, 2)'", ex.Message);
            Assert.IsTrue(ex.InnerException is FormatException);
        }

        [Test]
        public void EqualsComparesCoordinates()
        {
            Assert.IsTrue(p.Equals(new Point2D(1.5, -2.0)));
            Assert.IsFalse(p.Equals(new Point2D(-2.0, 1.5)));
            Assert.IsFalse(p.Equals(null));
            Assert.IsFalse(p.Equals(new Vector2D(1.5, -2.0)));
        }

        [Test]
        public void HashCodeFollowsEquality()
        {
            Assert.AreEqual(new Point2D(1.5, -2.0).GetHashCode(), p.GetHashCode());
            Assert.IsFalse(new Point2D(1, 2).GetHashCode() == new Point2D(2, 1).GetHashCode());
        }

        [Test]
        public void ToStringRoundsToThreeDecimals()
        {
            Assert.AreEqual("(1.5, -2)", p.ToString());
            Assert.AreEqual("(0.333, 2)", new Point2D(1.0 / 3.0, 2).ToString());
        }
    }
}
