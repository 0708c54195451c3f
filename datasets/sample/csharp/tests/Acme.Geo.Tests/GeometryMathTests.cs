using System;
using NUnit.Framework;

namespace Acme.Geo.Tests
{
    [TestFixture]
    public class GeometryMathTests
    {
        [Test]
        public void AlmostEqualUsesRelativeDefaultTolerance()
        {
            Assert.IsTrue(GeometryMath.AlmostEqual(0.1 + 0.2, 0.3));
            Assert.IsTrue(GeometryMath.AlmostEqual(1e12, 1e12 + 1));
            Assert.IsFalse(GeometryMath.AlmostEqual(1.0, 1.0 + 1e-8));
        }

        [Test]
        public void AlmostEqualWithTolerance()
        {
            Assert.IsTrue(GeometryMath.AlmostEqual(1.0, 1.05, 0.1));
            Assert.IsFalse(GeometryMath.AlmostEqual(1.0, 1.2, 0.1));
            Assert.IsTrue(GeometryMath.AlmostEqual(100.0, 105.0, 0.1));
        }

        [Test]
        public void AlmostEqualRejectsNegativeTolerance()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => GeometryMath.AlmostEqual(1.0, 1.0, -0.1));
        }

        [TestCase(5.0, 0.0, 10.0, 5.0)]
        [TestCase(-1.0, 0.0, 10.0, 0.0)]
        [TestCase(11.0, 0.0, 10.0, 10.0)]
        public void ClampLimitsValue(double value, double min, double max, double expected)
        {
            Assert.AreEqual(expected, GeometryMath.Clamp(value, min, max));
        }

        [Test]
        public void ClampRejectsInvertedRange()
        {
            Assert.Throws<ArgumentException>(() => GeometryMath.Clamp(1.0, 2.0, 1.0));
        }

        [TestCase(-90.0, 270.0)]
        [TestCase(720.0, 0.0)]
        [TestCase(360.0, 0.0)]
        [TestCase(45.5, 45.5)]
        [TestCase(-1e-14, 0.0)]
        [TestCase(-450.0, 270.0)]
        public void NormalizeDegreesMapsIntoRange(double degrees, double expected)
        {
            Assert.AreEqual(expected, GeometryMath.NormalizeDegrees(degrees));
        }

        [Test]
        public void ToRadiansAndBack()
        {
            Assert.AreEqual(Math.PI, GeometryMath.ToRadians(180.0), 1e-12);
            Assert.AreEqual(Math.PI / 2, GeometryMath.ToRadians(90.0), 1e-12);
            Assert.AreEqual(90.0, GeometryMath.ToDegrees(Math.PI / 2), 1e-12);
            Assert.AreEqual(-180.0, GeometryMath.ToDegrees(-Math.PI), 1e-12);
        }

        [Test]
        public void OrientationSignGivesTurnDirection()
        {
            var o = new Point2D(0, 0);
            Assert.AreEqual(1.0, GeometryMath.Orientation(o, new Point2D(1, 0), new Point2D(0, 1)));
            Assert.AreEqual(-1.0, GeometryMath.Orientation(o, new Point2D(0, 1), new Point2D(1, 0)));
            Assert.AreEqual(0.0, GeometryMath.Orientation(o, new Point2D(1, 1), new Point2D(2, 2)));
            Assert.AreEqual(6.0, GeometryMath.Orientation(new Point2D(1, 1), new Point2D(4, 1), new Point2D(1, 3)));
        }
    }
}
