using System;
using Acme.Geo.Measure;
using NUnit.Framework;

namespace Acme.Geo.Tests.Measure
{
    [TestFixture]
    public class LengthUnitTests
    {
        [TestCase(LengthUnit.Millimeter, "mm")]
        [TestCase(LengthUnit.Centimeter, "cm")]
        [TestCase(LengthUnit.Meter, "m")]
        [TestCase(LengthUnit.Kilometer, "km")]
        [TestCase(LengthUnit.Inch, "in")]
        [TestCase(LengthUnit.Foot, "ft")]
        [TestCase(LengthUnit.Mile, "mi")]
        public void SymbolAndFromSymbolRoundTrip(LengthUnit unit, string symbol)
        {
            Assert.AreEqual(symbol, unit.Symbol());
            Assert.AreEqual(unit, LengthUnitExtensions.FromSymbol(symbol));
        }

        [TestCase(LengthUnit.Millimeter, 0.001, true)]
        [TestCase(LengthUnit.Centimeter, 0.01, true)]
        [TestCase(LengthUnit.Meter, 1.0, true)]
        [TestCase(LengthUnit.Kilometer, 1000.0, true)]
        [TestCase(LengthUnit.Inch, 0.0254, false)]
        [TestCase(LengthUnit.Foot, 0.3048, false)]
        [TestCase(LengthUnit.Mile, 1609.344, false)]
        public void SizeAndSystem(LengthUnit unit, double metersPerUnit, bool metric)
        {
            Assert.AreEqual(metersPerUnit, unit.MetersPerUnit());
            Assert.AreEqual(metric, unit.IsMetric());
        }

        [Test]
        public void UndefinedEnumValueIsRejected()
        {
            Assert.Throws<ArgumentOutOfRangeException>(() => ((LengthUnit)42).Symbol());
            Assert.Throws<ArgumentOutOfRangeException>(() => ((LengthUnit)42).MetersPerUnit());
            Assert.IsFalse(((LengthUnit)42).IsMetric());
        }

        [Test]
        public void ToMetersAndFromMeters()
        {
            Assert.AreEqual(2500.0, LengthUnit.Kilometer.ToMeters(2.5));
            Assert.AreEqual(0.0254, LengthUnit.Inch.ToMeters(1.0));
            Assert.AreEqual(1.0, LengthUnit.Foot.FromMeters(0.3048), 1e-12);
            Assert.AreEqual(250.0, LengthUnit.Centimeter.FromMeters(2.5), 1e-12);
        }

        [Test]
        public void ConvertBetweenUnits()
        {
            Assert.AreEqual(1.609344, LengthUnit.Mile.Convert(1.0, LengthUnit.Kilometer), 1e-12);
            Assert.AreEqual(12.0, LengthUnit.Foot.Convert(1.0, LengthUnit.Inch), 1e-9);
            Assert.AreEqual(150.0, LengthUnit.Meter.Convert(1.5, LengthUnit.Centimeter), 1e-9);
        }

        [Test]
        public void ConvertToSameUnitIsExact()
        {
            Assert.AreEqual(1.5, LengthUnit.Inch.Convert(1.5, LengthUnit.Inch));
            Assert.AreEqual(0.9, LengthUnit.Centimeter.Convert(0.9, LengthUnit.Centimeter));
        }

        [TestCase("KM")]
        [TestCase("parsec")]
        [TestCase("")]
        public void FromSymbolRejectsUnknown(string symbol)
        {
            var ex = Assert.Throws<UnknownUnitException>(() => LengthUnitExtensions.FromSymbol(symbol));
            Assert.AreEqual(symbol, ex.Symbol);
            Assert.AreEqual("unknown unit: '" + symbol + "'", ex.Message);
        }
    }
}
