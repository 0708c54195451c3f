using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using Acme.Common;

namespace Acme.Geo.Shapes
{
    /// <summary>Ordered collection of shapes of one kind.</summary>
    public sealed class ShapeCollection<T> : IEnumerable<T> where T : IShape
    {
        private readonly List<T> shapes = new List<T>();

        public void Add(T shape)
        {
            if (shape == null)
            {
                throw new ArgumentNullException("shape", "shape must not be null");
            }
            shapes.Add(shape);
        }

        public void AddRange(IEnumerable<T> items)
        {
            foreach (T item in items)
            {
                Add(item);
            }
        }

        public T this[int index]
        {
            get { return shapes[Preconditions.CheckIndex(index, shapes.Count)]; }
        }

        public int Count
        {
            get { return shapes.Count; }
        }

        public bool IsEmpty
        {
            get { return shapes.Count == 0; }
        }

        public double TotalArea()
        {
            double total = 0.0;
            foreach (T shape in shapes)
            {
                total += shape.Area();
            }
            return total;
        }

        /// <summary>Shape with the largest area; the first one wins on ties.</summary>
        public T Largest()
        {
            if (shapes.Count == 0)
            {
                throw new InvalidOperationException("no shapes");
            }
            T best = shapes[0];
            foreach (T shape in shapes)
            {
                if (shape.Area() > best.Area())
                {
                    best = shape;
                }
            }
            return best;
        }

        public ShapeCollection<T> Filter(Func<T, bool> predicate)
        {
            var result = new ShapeCollection<T>();
            foreach (T shape in shapes)
            {
                if (predicate(shape))
                {
                    result.Add(shape);
                }
            }
            return result;
        }

        /// <summary>Shapes by increasing area; equal areas keep insertion order (OrderBy is stable, List.Sort is not).</summary>
        public IList<T> SortedByArea()
        {
            return shapes.OrderBy(s => s.Area()).ToList();
        }

        public IList<TResult> Map<TResult>(Func<T, TResult> mapper)
        {
            var result = new List<TResult>(shapes.Count);
            foreach (T shape in shapes)
            {
                result.Add(mapper(shape));
            }
            return result;
        }

        public Summary Summarize()
        {
            double perimeter = 0.0;
            foreach (T shape in shapes)
            {
                perimeter += shape.Perimeter();
            }
            return new Summary(shapes.Count, TotalArea(), perimeter);
        }

        public IEnumerator<T> GetEnumerator()
        {
            return shapes.GetEnumerator();
        }

        IEnumerator IEnumerable.GetEnumerator()
        {
            return GetEnumerator();
        }

        /// <summary>Totals over a collection.</summary>
        public sealed class Summary
        {
            private readonly int count;
            private readonly double totalArea;
            private readonly double totalPerimeter;

            internal Summary(int count, double totalArea, double totalPerimeter)
            {
                this.count = count;
                this.totalArea = totalArea;
                this.totalPerimeter = totalPerimeter;
            }

            public int Count
            {
                get { return count; }
            }

            public double TotalArea
            {
                get { return totalArea; }
            }

            public double TotalPerimeter
            {
                get { return totalPerimeter; }
            }

            public double AverageArea
            {
                get { return count == 0 ? 0.0 : totalArea / count; }
            }

            public override string ToString()
            {
                return count + " shapes, area " + StringUtils.FormatNumber(totalArea, 2)
                    + ", perimeter " + StringUtils.FormatNumber(totalPerimeter, 2);
            }
        }
    }
}
