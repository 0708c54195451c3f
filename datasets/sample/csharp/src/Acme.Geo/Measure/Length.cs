using System;
using System.Globalization;
using Acme.Common;

namespace Acme.Geo.Measure
{
    /// <summary>A length value with its unit.</summary>
    public sealed class Length : IComparable<Length>
    {
        private readonly double value;
        private readonly LengthUnit unit;

        public Length(double value, LengthUnit unit)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
            {
                throw new ArgumentException("length must be finite: " + value.ToString(CultureInfo.InvariantCulture));
            }
            this.value = value;
            this.unit = unit;
        }

        /// <summary>Parses "12.5 km" (value, whitespace, unit symbol).</summary>
        public static Length Parse(string text)
        {
            string[] parts = text.Trim().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length != 2)
            {
                throw new GeometryException("expected '<value> <unit>' but got '" + text + "'");
            }
            double parsed;
            if (!double.TryParse(parts[0], NumberStyles.Float, CultureInfo.InvariantCulture, out parsed))
            {
                throw new GeometryException("invalid length value '" + parts[0] + "'");
            }
            return new Length(parsed, LengthUnitExtensions.FromSymbol(parts[1]));
        }

        public double Value
        {
            get { return value; }
        }

        public LengthUnit Unit
        {
            get { return unit; }
        }

        public double ToMeters()
        {
            return unit.ToMeters(value);
        }

        public Length To(LengthUnit target)
        {
            return new Length(unit.Convert(value, target), target);
        }

        /// <summary>Sum expressed in this length's unit.</summary>
        public Length Plus(Length other)
        {
            return new Length(value + other.unit.Convert(other.value, unit), unit);
        }

        public Length Minus(Length other)
        {
            return new Length(value - other.unit.Convert(other.value, unit), unit);
        }

        public Length Times(double factor)
        {
            return new Length(value * factor, unit);
        }

        public int CompareTo(Length other)
        {
            return ToMeters().CompareTo(other.ToMeters());
        }

        /// <summary>Same value and same unit (1000 m is not equal to 1 km; compare with CompareTo).</summary>
        public override bool Equals(object obj)
        {
            var other = obj as Length;
            if (other == null)
            {
                return false;
            }
            return value == other.value && unit == other.unit;
        }

        public override int GetHashCode()
        {
            unchecked
            {
                return 31 * value.GetHashCode() + (int)unit;
            }
        }

        public override string ToString()
        {
            return StringUtils.FormatNumber(value, 6) + " " + unit.Symbol();
        }
    }
}
