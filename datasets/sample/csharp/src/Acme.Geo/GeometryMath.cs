using System;
using System.Globalization;

namespace Acme.Geo
{
    /// <summary>Numeric helpers for geometry code.</summary>
    public static class GeometryMath
    {
        /// <summary>Default relative tolerance.</summary>
        public const double Epsilon = 1e-9;

        public static bool AlmostEqual(double a, double b)
        {
            return AlmostEqual(a, b, Epsilon);
        }

        /// <summary>Relative comparison: |a - b| &lt;= tolerance * max(1, |a|, |b|).</summary>
        public static bool AlmostEqual(double a, double b, double tolerance)
        {
            if (tolerance < 0)
            {
                throw new ArgumentOutOfRangeException("tolerance", "tolerance must not be negative: " + tolerance.ToString(CultureInfo.InvariantCulture));
            }
            double scale = Math.Max(1.0, Math.Max(Math.Abs(a), Math.Abs(b)));
            return Math.Abs(a - b) <= tolerance * scale;
        }

        public static double Clamp(double value, double min, double max)
        {
            if (min > max)
            {
                throw new ArgumentException("min " + min.ToString(CultureInfo.InvariantCulture)
                    + " is greater than max " + max.ToString(CultureInfo.InvariantCulture));
            }
            if (value < min)
            {
                return min;
            }
            if (value > max)
            {
                return max;
            }
            return value;
        }

        /// <summary>Maps any angle in degrees into [0, 360).</summary>
        public static double NormalizeDegrees(double degrees)
        {
            double result = degrees % 360.0;
            if (result < 0)
            {
                result += 360.0;
            }
            return result == 360.0 ? 0.0 : result;
        }

        public static double ToRadians(double degrees)
        {
            return degrees * Math.PI / 180.0;
        }

        public static double ToDegrees(double radians)
        {
            return radians * 180.0 / Math.PI;
        }

        /// <summary>
        /// Orientation of the turn o -> a -> b: positive for counter-clockwise,
        /// negative for clockwise, zero when collinear.
        /// </summary>
        public static double Orientation(Point2D o, Point2D a, Point2D b)
        {
            return (a.X - o.X) * (b.Y - o.Y) - (a.Y - o.Y) * (b.X - o.X);
        }
    }
}
