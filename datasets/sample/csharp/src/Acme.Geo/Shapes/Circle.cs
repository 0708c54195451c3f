using System;
using Acme.Common;

namespace Acme.Geo.Shapes
{
    public sealed class Circle : AbstractShape
    {
        private readonly Point2D center;
        private readonly double radius;

        public Circle(Point2D center, double radius)
            : base("circle")
        {
            this.center = Preconditions.CheckNotNull(center, "center");
            this.radius = Preconditions.CheckPositive(radius, "radius");
        }

        public Circle(double radius)
            : this(Point2D.Origin, radius)
        {
        }

        public Point2D Center
        {
            get { return center; }
        }

        public double Radius
        {
            get { return radius; }
        }

        public double Diameter
        {
            get { return 2.0 * radius; }
        }

        public override double Area()
        {
            return Math.PI * radius * radius;
        }

        public override double Perimeter()
        {
            return 2.0 * Math.PI * radius;
        }

        public override BoundingBox GetBoundingBox()
        {
            return new BoundingBox(center.X - radius, center.Y - radius, center.X + radius, center.Y + radius);
        }

        protected override bool ContainsPoint(Point2D point)
        {
            return center.DistanceTo(point) <= radius;
        }

        public Circle Scale(double factor)
        {
            return new Circle(center, radius * Preconditions.CheckPositive(factor, "factor"));
        }

        /// <summary>True when the two discs overlap or touch.</summary>
        public bool Intersects(Circle other)
        {
            return center.DistanceTo(other.center) <= radius + other.radius;
        }
    }
}
