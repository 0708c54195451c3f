using System;
using Acme.Geo.Measure;
using NUnit.Framework;

namespace Acme.Geo.Tests.Measure
{
    [TestFixture]
    public class LengthTests
    {
        [Test]
        public void ConstructorKeepsValueAndUnit()
        {
            var length = new Length(12.5, LengthUnit.Kilometer);
            Assert.AreEqual(12.5, length.Value);
            Assert.AreEqual(LengthUnit.Kilometer, length.Unit);
        }

        [Test]
        public void ConstructorRejectsNonFinite()
        {
            Assert.Throws<ArgumentException>(() => new Length(double.NaN, LengthUnit.Meter));
            Assert.Throws<ArgumentException>(() => new Length(double.PositiveInfinity, LengthUnit.Meter));
        }

        [TestCase("12.5 km", 12.5, LengthUnit.Kilometer)]
        [TestCase("  3   ft ", 3.0, LengthUnit.Foot)]
        [TestCase("-2\tmm", -2.0, LengthUnit.Millimeter)]
        public void ParseReadsValueAndSymbol(string text, double value, LengthUnit unit)
        {
            Assert.AreEqual(new Length(value, unit), Length.Parse(text));
        }

        [Test]
        public void ParseRejectsMalformedText()
        {
            var ex = Assert.Throws<GeometryException>(() => Length.Parse("12.5"));
            Assert.AreEqual("expected '<value> <unit>' but got '12.5'", ex.Message);
            var bad = Assert.Throws<GeometryException>(() => Length.Parse("x m"));
            Assert.AreEqual("invalid length value 'x'", bad.Message);
            Assert.Throws<UnknownUnitException>(() => Length.Parse("1 parsec"));
        }

        [Test]
        public void ToMetersUsesUnit()
        {
            Assert.AreEqual(1500.0, new Length(1.5, LengthUnit.Kilometer).ToMeters());
            Assert.AreEqual(0.3048, new Length(1, LengthUnit.Foot).ToMeters());
        }

        [Test]
        public void ToConvertsUnit()
        {
            Length inches = new Length(2, LengthUnit.Foot).To(LengthUnit.Inch);
            Assert.AreEqual(LengthUnit.Inch, inches.Unit);
            Assert.AreEqual(24.0, inches.Value, 1e-9);
        }

        [Test]
        public void PlusAndMinusKeepThisUnit()
        {
            Length km = new Length(1, LengthUnit.Kilometer);
            Length sum = km.Plus(new Length(500, LengthUnit.Meter));
            Assert.AreEqual(LengthUnit.Kilometer, sum.Unit);
            Assert.AreEqual(1.5, sum.Value, 1e-12);
            Length difference = km.Minus(new Length(250, LengthUnit.Meter));
            Assert.AreEqual(LengthUnit.Kilometer, difference.Unit);
            Assert.AreEqual(0.75, difference.Value, 1e-12);
        }

        [Test]
        public void TimesScalesValue()
        {
            Assert.AreEqual(new Length(7.5, LengthUnit.Mile), new Length(2.5, LengthUnit.Mile).Times(3));
        }

        [Test]
        public void CompareToUsesMeters()
        {
            Assert.AreEqual(0, new Length(1, LengthUnit.Kilometer).CompareTo(new Length(1000, LengthUnit.Meter)));
            Assert.AreEqual(1, new Length(1, LengthUnit.Mile).CompareTo(new Length(1, LengthUnit.Kilometer)));
            Assert.AreEqual(-1, new Length(11, LengthUnit.Inch).CompareTo(new Length(1, LengthUnit.Foot)));
        }

        [Test]
        public void EqualsNeedsSameUnit()
        {
            Assert.IsTrue(new Length(1, LengthUnit.Meter).Equals(new Length(1, LengthUnit.Meter)));
            Assert.IsFalse(new Length(1, LengthUnit.Kilometer).Equals(new Length(1000, LengthUnit.Meter)));
            Assert.IsFalse(new Length(1, LengthUnit.Meter).Equals(new Length(2, LengthUnit.Meter)));
            Assert.IsFalse(new Length(1, LengthUnit.Meter).Equals("1 m"));
        }

        [Test]
        public void HashCodeFollowsEquality()
        {
            Assert.AreEqual(new Length(2, LengthUnit.Foot).GetHashCode(), new Length(2, LengthUnit.Foot).GetHashCode());
            Assert.IsFalse(new Length(2, LengthUnit.Foot).GetHashCode() == new Length(2, LengthUnit.Inch).GetHashCode());
        }

        [Test]
        public void ToStringShowsValueAndSymbol()
        {
            Assert.AreEqual("1.5 km", new Length(1.5, LengthUnit.Kilometer).ToString());
            Assert.AreEqual("0.333333 m", new Length(1.0 / 3.0, LengthUnit.Meter).ToString());
            Assert.AreEqual("12 in", new Length(12, LengthUnit.Inch).ToString());
        }
    }
}
