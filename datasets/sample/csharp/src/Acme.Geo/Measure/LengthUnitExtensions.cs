using System;

namespace Acme.Geo.Measure
{
    /// <summary>The fields and methods of the Java enum LengthUnit.</summary>
    public static class LengthUnitExtensions
    {
        public static string Symbol(this LengthUnit unit)
        {
            switch (unit)
            {
                case LengthUnit.Millimeter: return "mm";
                case LengthUnit.Centimeter: return "cm";
                case LengthUnit.Meter: return "m";
                case LengthUnit.Kilometer: return "km";
                case LengthUnit.Inch: return "in";
                case LengthUnit.Foot: return "ft";
                case LengthUnit.Mile: return "mi";
                default: throw new ArgumentOutOfRangeException("unit", "unknown length unit " + unit);
            }
        }

        public static double MetersPerUnit(this LengthUnit unit)
        {
            switch (unit)
            {
                case LengthUnit.Millimeter: return 0.001;
                case LengthUnit.Centimeter: return 0.01;
                case LengthUnit.Meter: return 1.0;
                case LengthUnit.Kilometer: return 1000.0;
                case LengthUnit.Inch: return 0.0254;
                case LengthUnit.Foot: return 0.3048;
                case LengthUnit.Mile: return 1609.344;
                default: throw new ArgumentOutOfRangeException("unit", "unknown length unit " + unit);
            }
        }

        public static bool IsMetric(this LengthUnit unit)
        {
            switch (unit)
            {
                case LengthUnit.Millimeter:
                case LengthUnit.Centimeter:
                case LengthUnit.Meter:
                case LengthUnit.Kilometer:
                    return true;
                default:
                    return false;
            }
        }

        public static double ToMeters(this LengthUnit unit, double value)
        {
            return value * unit.MetersPerUnit();
        }

        public static double FromMeters(this LengthUnit unit, double meters)
        {
            return meters / unit.MetersPerUnit();
        }

        /// <summary>Converts a value in this unit into the target unit.</summary>
        public static double Convert(this LengthUnit unit, double value, LengthUnit target)
        {
            if (target == unit)
            {
                return value;
            }
            return target.FromMeters(unit.ToMeters(value));
        }

        /// <summary>Unit whose symbol matches exactly (case-sensitive: "m" is not "M").</summary>
        public static LengthUnit FromSymbol(string symbol)
        {
            foreach (LengthUnit unit in Enum.GetValues(typeof(LengthUnit)))
            {
                if (unit.Symbol() == symbol)
                {
                    return unit;
                }
            }
            throw new UnknownUnitException(symbol);
        }
    }
}
