using System;
using System.Globalization;
using Acme.Common;

namespace Acme.Geo
{
    /// <summary>Immutable point in the plane.</summary>
    public sealed class Point2D
    {
        public static readonly Point2D Origin = new Point2D(0.0, 0.0);

        private readonly double x;
        private readonly double y;

        public Point2D(double x, double y)
        {
            if (double.IsNaN(x) || double.IsNaN(y))
            {
                throw new ArgumentException("coordinates must not be NaN");
            }
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

        public double DistanceTo(Point2D other)
        {
            Preconditions.CheckNotNull(other, "other");
            double dx = other.x - x;
            double dy = other.y - y;
            return Math.Sqrt(dx * dx + dy * dy);
        }

        public Point2D Translate(double dx, double dy)
        {
            return new Point2D(x + dx, y + dy);
        }

        public Point2D Translate(Vector2D offset)
        {
            Preconditions.CheckNotNull(offset, "offset");
            return Translate(offset.X, offset.Y);
        }

        public Point2D Midpoint(Point2D other)
        {
            Preconditions.CheckNotNull(other, "other");
            return new Point2D((x + other.x) / 2.0, (y + other.y) / 2.0);
        }

        public Vector2D VectorTo(Point2D other)
        {
            Preconditions.CheckNotNull(other, "other");
            return new Vector2D(other.x - x, other.y - y);
        }

        /// <summary>Rotates this point counter-clockwise around the pivot.</summary>
        public Point2D Rotate(Point2D pivot, double degrees)
        {
            double radians = GeometryMath.ToRadians(degrees);
            double cos = Math.Cos(radians);
            double sin = Math.Sin(radians);
            double dx = x - pivot.x;
            double dy = y - pivot.y;
            return new Point2D(pivot.x + dx * cos - dy * sin, pivot.y + dx * sin + dy * cos);
        }

        /// <summary>Parses "(x, y)" or "x,y".</summary>
        public static Point2D Parse(string text)
        {
            Preconditions.CheckNotNull(text, "text");
            string body = text.Trim();
            if (body.StartsWith("(", StringComparison.Ordinal) && body.EndsWith(")", StringComparison.Ordinal))
            {
                body = body.Substring(1, body.Length - 2);
            }
            string[] parts = body.Split(',');
            if (parts.Length != 2)
            {
                throw new GeometryException("expected two coordinates in '" + text + "'");
            }
            try
            {
                return new Point2D(
                    double.Parse(parts[0].Trim(), NumberStyles.Float, CultureInfo.InvariantCulture),
                    double.Parse(parts[1].Trim(), NumberStyles.Float, CultureInfo.InvariantCulture));
            }
            catch (FormatException e)
            {
                throw new GeometryException("invalid coordinate in '" + text + "'", e);
            }
        }

        public override bool Equals(object obj)
        {
            if (ReferenceEquals(this, obj))
            {
                return true;
            }
            var other = obj as Point2D;
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
                return 31 * x.GetHashCode() + y.GetHashCode();
            }
        }

        public override string ToString()
        {
            return "(" + StringUtils.FormatNumber(x, 3) + ", " + StringUtils.FormatNumber(y, 3) + ")";
        }
    }
}
