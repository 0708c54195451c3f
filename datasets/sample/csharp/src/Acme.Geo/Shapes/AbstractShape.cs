using System;
using Acme.Common;

namespace Acme.Geo.Shapes
{
    /// <summary>Base class holding the name and the containment template.</summary>
    public abstract class AbstractShape : IShape
    {
        private readonly string name;

        protected AbstractShape(string name)
        {
            Preconditions.CheckArgument(!StringUtils.IsBlank(name), "name must not be blank");
            this.name = name;
        }

        public string Name
        {
            get { return name; }
        }

        public abstract double Area();

        public abstract double Perimeter();

        public abstract BoundingBox GetBoundingBox();

        /// <summary>Bounding-box pre-check, then the exact test of the subclass.</summary>
        public bool Contains(Point2D point)
        {
            Preconditions.CheckNotNull(point, "point");
            if (!GetBoundingBox().Contains(point))
            {
                return false;
            }
            return ContainsPoint(point);
        }

        /// <summary>Exact containment; called only for points inside the bounding box.</summary>
        protected abstract bool ContainsPoint(Point2D point);

        public int CompareByArea(IShape other)
        {
            return Area().CompareTo(other.Area());
        }

        /// <summary>Isoperimetric quotient 4*pi*A/P^2: 1 for a circle, smaller for everything else.</summary>
        public double Compactness()
        {
            double p = Perimeter();
            if (p == 0.0)
            {
                return 0.0;
            }
            return 4.0 * Math.PI * Area() / (p * p);
        }

        public override string ToString()
        {
            return GetType().Name + "[" + this.Describe() + "]";
        }
    }
}
