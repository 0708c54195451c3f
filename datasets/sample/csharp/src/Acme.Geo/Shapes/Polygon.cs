using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using Acme.Common;

namespace Acme.Geo.Shapes
{
    /// <summary>Simple polygon given by its vertices in order (either orientation).</summary>
    public sealed class Polygon : AbstractShape
    {
        private readonly IList<Point2D> vertices;

        private Polygon(IList<Point2D> vertices)
            : base("polygon")
        {
            this.vertices = new ReadOnlyCollection<Point2D>(new List<Point2D>(vertices));
        }

        public static Polygon Of(params Point2D[] vertices)
        {
            var builder = new Builder();
            foreach (Point2D vertex in vertices)
            {
                builder.AddVertex(vertex);
            }
            return builder.Build();
        }

        public IList<Point2D> Vertices
        {
            get { return vertices; }
        }

        public int VertexCount
        {
            get { return vertices.Count; }
        }

        /// <summary>Shoelace sum: positive for counter-clockwise vertex order.</summary>
        internal double SignedArea()
        {
            double sum = 0.0;
            int n = vertices.Count;
            for (int i = 0; i < n; i++)
            {
                Point2D a = vertices[i];
                Point2D b = vertices[(i + 1) % n];
                sum += a.X * b.Y - b.X * a.Y;
            }
            return sum / 2.0;
        }

        public override double Area()
        {
            return Math.Abs(SignedArea());
        }

        public override double Perimeter()
        {
            double total = 0.0;
            int n = vertices.Count;
            for (int i = 0; i < n; i++)
            {
                total += vertices[i].DistanceTo(vertices[(i + 1) % n]);
            }
            return total;
        }

        public override BoundingBox GetBoundingBox()
        {
            return BoundingBox.Of(vertices);
        }

        /// <summary>Even-odd ray casting towards +x.</summary>
        protected override bool ContainsPoint(Point2D point)
        {
            bool inside = false;
            int n = vertices.Count;
            for (int i = 0, j = n - 1; i < n; j = i++)
            {
                Point2D a = vertices[i];
                Point2D b = vertices[j];
                bool crosses = (a.Y > point.Y) != (b.Y > point.Y);
                if (crosses)
                {
                    double xAtY = (b.X - a.X) * (point.Y - a.Y) / (b.Y - a.Y) + a.X;
                    if (point.X < xAtY)
                    {
                        inside = !inside;
                    }
                }
            }
            return inside;
        }

        /// <summary>True when every turn has the same orientation (collinear turns are ignored).</summary>
        public bool IsConvex
        {
            get
            {
                int n = vertices.Count;
                int sign = 0;
                for (int i = 0; i < n; i++)
                {
                    double turn = GeometryMath.Orientation(vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
                    if (turn != 0.0)
                    {
                        int current = turn > 0 ? 1 : -1;
                        if (sign == 0)
                        {
                            sign = current;
                        }
                        else if (sign != current)
                        {
                            return false;
                        }
                    }
                }
                return true;
            }
        }

        /// <summary>Area centroid.</summary>
        public Point2D Centroid()
        {
            double a = SignedArea();
            if (a == 0.0)
            {
                throw new GeometryException("centroid of a degenerate polygon");
            }
            double cx = 0.0;
            double cy = 0.0;
            int n = vertices.Count;
            for (int i = 0; i < n; i++)
            {
                Point2D p = vertices[i];
                Point2D q = vertices[(i + 1) % n];
                double f = p.X * q.Y - q.X * p.Y;
                cx += (p.X + q.X) * f;
                cy += (p.Y + q.Y) * f;
            }
            return new Point2D(cx / (6.0 * a), cy / (6.0 * a));
        }

        /// <summary>Collects vertices; consecutive duplicates are dropped.</summary>
        public sealed class Builder
        {
            private readonly List<Point2D> vertices = new List<Point2D>();

            public Builder AddVertex(double x, double y)
            {
                return AddVertex(new Point2D(x, y));
            }

            public Builder AddVertex(Point2D vertex)
            {
                Preconditions.CheckNotNull(vertex, "vertex");
                if (vertices.Count == 0 || !vertices[vertices.Count - 1].Equals(vertex))
                {
                    vertices.Add(vertex);
                }
                return this;
            }

            public int Count
            {
                get { return vertices.Count; }
            }

            public Polygon Build()
            {
                var distinct = new List<Point2D>(vertices);
                if (distinct.Count > 1 && distinct[0].Equals(distinct[distinct.Count - 1]))
                {
                    distinct.RemoveAt(distinct.Count - 1);
                }
                if (distinct.Count < 3)
                {
                    throw new GeometryException("a polygon needs at least 3 distinct vertices, got " + distinct.Count);
                }
                return new Polygon(distinct);
            }
        }
    }
}
