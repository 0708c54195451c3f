using System;
using Acme.Common;

namespace Acme.Geo
{
    /// <summary>Immutable displacement vector.</summary>
    public sealed class Vector2D
    {
        public static readonly Vector2D Zero = new Vector2D(0.0, 0.0);

        private readonly double x;
        private readonly double y;

        public Vector2D(double x, double y)
        {
            this.x = x;
            this.y = y;
        }

        public double X
        {
            get { return x; }
        }

        public double Y
        {
            get { return y; }
        }

        public double Magnitude()
        {
            return Math.Sqrt(x * x + y * y);
        }

        public Vector2D Add(Vector2D other)
        {
            return new Vector2D(x + other.x, y + other.y);
        }

        public Vector2D Subtract(Vector2D other)
        {
            return new Vector2D(x - other.x, y - other.y);
        }

        public Vector2D Scale(double factor)
        {
            return new Vector2D(x * factor, y * factor);
        }

        public double Dot(Vector2D other)
        {
            return x * other.x + y * other.y;
        }

        /// <summary>z component of the 3D cross product.</summary>
        public double Cross(Vector2D other)
        {
            return x * other.y - y * other.x;
        }

        public Vector2D Normalize()
        {
            double length = Magnitude();
            if (length == 0.0)
            {
                throw new GeometryException("cannot normalize the zero vector");
            }
            return new Vector2D(x / length, y / length);
        }

        /// <summary>Counter-clockwise perpendicular.</summary>
        public Vector2D Perpendicular()
        {
            return new Vector2D(-y, x);
        }

        /// <summary>Unsigned angle between the two vectors, in degrees.</summary>
        public double AngleTo(Vector2D other)
        {
            double denominator = Magnitude() * other.Magnitude();
            if (denominator == 0.0)
            {
                throw new GeometryException("angle with the zero vector is undefined");
            }
            double cos = GeometryMath.Clamp(Dot(other) / denominator, -1.0, 1.0);
            return GeometryMath.ToDegrees(Math.Acos(cos));
        }

        public override bool Equals(object obj)
        {
            var other = obj as Vector2D;
            if (other == null)
            {
                return false;
            }
            return x == other.x && y == other.y;
        }

        public override int GetHashCode()
        {
            unchecked
            {
                return 17 * x.GetHashCode() ^ y.GetHashCode();
            }
        }

        public override string ToString()
        {
            return "<" + StringUtils.FormatNumber(x, 3) + ", " + StringUtils.FormatNumber(y, 3) + ">";
        }
    }
}
