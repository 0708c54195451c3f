using Acme.Geo.Measure;
using NUnit.Framework;

namespace Acme.Geo.Tests.Measure
{
    [TestFixture]
    public class UnitAliasesTests
    {
        private UnitAliases defaults;

        [SetUp]
        public void SetUp()
        {
            defaults = UnitAliases.LoadDefault();
        }

        [Test]
        public void LoadDefaultReadsEmbeddedResource()
        {
            Assert.AreEqual(14, defaults.Count);
            Assert.AreEqual(LengthUnit.Mile, defaults.Resolve("miles"));
        }

        [TestCase("Metre", LengthUnit.Meter)]
        [TestCase(" FEET ", LengthUnit.Foot)]
        [TestCase("inches", LengthUnit.Inch)]
        [TestCase("km", LengthUnit.Kilometer)]
        [TestCase("mm", LengthUnit.Millimeter)]
        public void ResolveFindsAliasOrSymbol(string name, LengthUnit expected)
        {
            Assert.AreEqual(expected, defaults.Resolve(name));
        }

        [Test]
        public void ResolveRejectsUnknownName()
        {
            var ex = Assert.Throws<UnknownUnitException>(() => defaults.Resolve("furlong"));
            Assert.AreEqual("furlong", ex.Symbol);
        }

        [Test]
        public void ParseSkipsCommentsAndBlankLines()
        {
            UnitAliases aliases = UnitAliases.Parse("# units\r\n\r\nYard = ft\r\n  pole=m  \n");
            Assert.AreEqual(2, aliases.Count);
            Assert.AreEqual(LengthUnit.Foot, aliases.Resolve("yard"));
            Assert.AreEqual(LengthUnit.Meter, aliases.Resolve("POLE"));
        }

        [Test]
        public void ParseLaterLineWins()
        {
            UnitAliases aliases = UnitAliases.Parse("span = m\nspan = cm");
            Assert.AreEqual(1, aliases.Count);
            Assert.AreEqual(LengthUnit.Centimeter, aliases.Resolve("span"));
        }

        [Test]
        public void ParseReportsLineNumber()
        {
            var ex = Assert.Throws<GeometryException>(() => UnitAliases.Parse("# header\nmetre m"));
            Assert.AreEqual("line 2: expected 'alias = symbol'", ex.Message);
            Assert.Throws<GeometryException>(() => UnitAliases.Parse("= m"));
        }

        [Test]
        public void ParseRejectsUnknownSymbol()
        {
            Assert.Throws<UnknownUnitException>(() => UnitAliases.Parse("league = lg"));
        }

        [Test]
        public void NamesAreSortedOrdinally()
        {
            UnitAliases aliases = UnitAliases.Parse("b = m\nA = cm\na2 = km");
            Assert.AreEqual("a,a2,b", string.Join(",", aliases.Names()));
            Assert.AreEqual("centimeter,centimetre,feet", string.Join(",", defaults.Names()).Substring(0, 26));
        }
    }
}
