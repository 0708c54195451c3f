using System;
using System.Collections.Generic;
using System.Globalization;
using Acme.Common;

namespace Acme.Geo
{
    /// <summary>Axis-aligned rectangle, closed on all sides.</summary>
    public sealed class BoundingBox
    {
        private readonly double minX;
        private readonly double minY;
        private readonly double maxX;
        private readonly double maxY;

        public BoundingBox(double minX, double minY, double maxX, double maxY)
        {
            if (minX > maxX || minY > maxY)
            {
                throw new GeometryException(string.Format(CultureInfo.InvariantCulture,
                    "inverted bounding box: min ({0}, {1}) max ({2}, {3})", minX, minY, maxX, maxY));
            }
            this.minX = minX;
            this.minY = minY;
            this.maxX = maxX;
            this.maxY = maxY;
        }

        public static BoundingBox Of(params Point2D[] points)
        {
            return Of((IEnumerable<Point2D>)points);
        }

        /// <summary>Smallest box containing every point.</summary>
        public static BoundingBox Of(IEnumerable<Point2D> points)
        {
            Preconditions.CheckNotNull(points, "points");
            double minX = double.PositiveInfinity;
            double minY = double.PositiveInfinity;
            double maxX = double.NegativeInfinity;
            double maxY = double.NegativeInfinity;
            int count = 0;
            foreach (Point2D p in points)
            {
                minX = Math.Min(minX, p.X);
                minY = Math.Min(minY, p.Y);
                maxX = Math.Max(maxX, p.X);
                maxY = Math.Max(maxY, p.Y);
                count++;
            }
            if (count == 0)
            {
                throw new GeometryException("bounding box of no points");
            }
            return new BoundingBox(minX, minY, maxX, maxY);
        }

        public double MinX
        {
            get { return minX; }
        }

        public double MinY
        {
            get { return minY; }
        }

        public double MaxX
        {
            get { return maxX; }
        }

        public double MaxY
        {
            get { return maxY; }
        }

        public double Width
        {
            get { return maxX - minX; }
        }

        public double Height
        {
            get { return maxY - minY; }
        }

        public Point2D Center
        {
            get { return new Point2D((minX + maxX) / 2.0, (minY + maxY) / 2.0); }
        }

        public double Area()
        {
            return Width * Height;
        }

        public bool Contains(Point2D p)
        {
            return p.X >= minX && p.X <= maxX && p.Y >= minY && p.Y <= maxY;
        }

        /// <summary>True when the boxes share at least one point (touching edges count).</summary>
        public bool Intersects(BoundingBox other)
        {
            return minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY;
        }

        public BoundingBox Union(BoundingBox other)
        {
            return new BoundingBox(Math.Min(minX, other.minX), Math.Min(minY, other.minY),
                Math.Max(maxX, other.maxX), Math.Max(maxY, other.maxY));
        }

        /// <summary>Grows (or, with a negative margin, shrinks) the box on every side.</summary>
        public BoundingBox Expand(double margin)
        {
            return new BoundingBox(minX - margin, minY - margin, maxX + margin, maxY + margin);
        }

        public override bool Equals(object obj)
        {
            var other = obj as BoundingBox;
            if (other == null)
            {
                return false;
            }
            return minX == other.minX && minY == other.minY && maxX == other.maxX && maxY == other.maxY;
        }

        public override int GetHashCode()
        {
            unchecked
            {
                int hash = minX.GetHashCode();
                hash = 31 * hash + minY.GetHashCode();
                hash = 31 * hash + maxX.GetHashCode();
                return 31 * hash + maxY.GetHashCode();
            }
        }

        public override string ToString()
        {
            return "[" + StringUtils.FormatNumber(minX, 3) + ", " + StringUtils.FormatNumber(minY, 3) + " .. "
                + StringUtils.FormatNumber(maxX, 3) + ", " + StringUtils.FormatNumber(maxY, 3) + "]";
        }
    }
}
