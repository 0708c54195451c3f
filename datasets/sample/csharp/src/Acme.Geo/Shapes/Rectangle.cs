using System;
using System.Collections.Generic;
using Acme.Common;

namespace Acme.Geo.Shapes
{
    /// <summary>Axis-aligned rectangle given by its lower-left corner and its size.</summary>
    public class Rectangle : AbstractShape
    {
        private readonly Point2D corner;
        private readonly double width;
        private readonly double height;

        public Rectangle(Point2D corner, double width, double height)
            : this("rectangle", corner, width, height)
        {
        }

        protected Rectangle(string name, Point2D corner, double width, double height)
            : base(name)
        {
            this.corner = Preconditions.CheckNotNull(corner, "corner");
            this.width = Preconditions.CheckPositive(width, "width");
            this.height = Preconditions.CheckPositive(height, "height");
        }

        /// <summary>Rectangle spanned by two opposite corners given in any order.</summary>
        public static Rectangle FromCorners(Point2D a, Point2D b)
        {
            double minX = Math.Min(a.X, b.X);
            double minY = Math.Min(a.Y, b.Y);
            return new Rectangle(new Point2D(minX, minY), Math.Abs(a.X - b.X), Math.Abs(a.Y - b.Y));
        }

        public Point2D Corner
        {
            get { return corner; }
        }

        public double Width
        {
            get { return width; }
        }

        public double Height
        {
            get { return height; }
        }

        public bool IsSquare
        {
            get { return GeometryMath.AlmostEqual(width, height); }
        }

        public override double Area()
        {
            return width * height;
        }

        public override double Perimeter()
        {
            return 2.0 * (width + height);
        }

        public override BoundingBox GetBoundingBox()
        {
            return new BoundingBox(corner.X, corner.Y, corner.X + width, corner.Y + height);
        }

        protected override bool ContainsPoint(Point2D point)
        {
            return true;
        }

        /// <summary>The four corners counter-clockwise, starting at the lower-left one.</summary>
        public IList<Point2D> Corners()
        {
            var result = new List<Point2D>(4);
            result.Add(corner);
            result.Add(corner.Translate(width, 0.0));
            result.Add(corner.Translate(width, height));
            result.Add(corner.Translate(0.0, height));
            return result;
        }

        public double Diagonal()
        {
            return Math.Sqrt(width * width + height * height);
        }
    }
}
