using NUnit.Framework;

namespace Acme.Geo.Tests
{
    [TestFixture]
    public class Vector2DTests
    {
        private Vector2D v;

        [SetUp]
        public void SetUp()
        {
            v = new Vector2D(3, 4);
        }

        [Test]
        public void ComponentsAreExposed()
        {
            Assert.AreEqual(3.0, v.X);
            Assert.AreEqual(4.0, v.Y);
            Assert.AreEqual(0.0, Vector2D.Zero.Magnitude());
        }

        [Test]
        public void MagnitudeIsLength()
        {
            Assert.AreEqual(5.0, v.Magnitude(), 1e-12);
            Assert.AreEqual(13.0, new Vector2D(-5, 12).Magnitude(), 1e-12);
        }

        [Test]
        public void AddAndSubtract()
        {
            Assert.AreEqual(new Vector2D(4, 6), v.Add(new Vector2D(1, 2)));
            Assert.AreEqual(new Vector2D(2, 2), v.Subtract(new Vector2D(1, 2)));
        }

        [Test]
        public void ScaleMultipliesBoth()
        {
            Assert.AreEqual(new Vector2D(-1.5, -2), v.Scale(-0.5));
        }

        [Test]
        public void DotAndCross()
        {
            Assert.AreEqual(11.0, v.Dot(new Vector2D(1, 2)));
            Assert.AreEqual(2.0, v.Cross(new Vector2D(1, 2)));
            Assert.AreEqual(-2.0, new Vector2D(1, 2).Cross(v));
        }

        [Test]
        public void NormalizeGivesUnitVector()
        {
            Vector2D n = v.Normalize();
            Assert.AreEqual(0.6, n.X, 1e-12);
            Assert.AreEqual(0.8, n.Y, 1e-12);
        }

        [Test]
        public void NormalizeRejectsZero()
        {
            var ex = Assert.Throws<GeometryException>(() => Vector2D.Zero.Normalize());
            Assert.AreEqual("cannot normalize the zero vector", ex.Message);
        }

        [Test]
        public void PerpendicularIsCounterClockwise()
        {
            Assert.AreEqual(new Vector2D(-4, 3), v.Perpendicular());
            Assert.AreEqual(0.0, v.Dot(v.Perpendicular()));
        }

        [Test]
        public void AngleToInDegrees()
        {
            Assert.AreEqual(90.0, new Vector2D(1, 0).AngleTo(new Vector2D(0, 2)), 1e-9);
            Assert.AreEqual(180.0, new Vector2D(1, 0).AngleTo(new Vector2D(-3, 0)), 1e-9);
            Assert.AreEqual(45.0, new Vector2D(1, 0).AngleTo(new Vector2D(1, 1)), 1e-9);
            Assert.AreEqual(0.0, v.AngleTo(v.Scale(2)), 1e-6);
        }

        [Test]
        public void AngleToZeroIsUndefined()
        {
            Assert.Throws<GeometryException>(() => v.AngleTo(Vector2D.Zero));
        }

        [Test]
        public void EqualityAndHash()
        {
            Assert.IsTrue(v.Equals(new Vector2D(3, 4)));
            Assert.IsFalse(v.Equals(new Vector2D(4, 3)));
            Assert.IsFalse(v.Equals(new Point2D(3, 4)));
            Assert.AreEqual(new Vector2D(3, 4).GetHashCode(), v.GetHashCode());
            Assert.IsFalse(v.GetHashCode() == new Vector2D(4, 3).GetHashCode());
        }

        [Test]
        public void ToStringUsesAngleBrackets()
        {
            Assert.AreEqual("<3, 4>", v.ToString());
            Assert.AreEqual("<0.667, -1>", new Vector2D(2.0 / 3.0, -1).ToString());
        }
    }
}
