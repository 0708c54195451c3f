using System;
using System.Collections.Generic;

namespace Acme.Common
{
    /// <summary>Generic helpers over collections.</summary>
    public static class CollectionUtils
    {
        /// <summary>Largest element; the first one wins on ties.</summary>
        public static T Max<T>(IEnumerable<T> items) where T : IComparable<T>
        {
            Preconditions.CheckNotNull(items, "items");
            using (IEnumerator<T> it = items.GetEnumerator())
            {
                if (!it.MoveNext())
                {
                    throw new InvalidOperationException("max of an empty collection");
                }
                T best = it.Current;
                while (it.MoveNext())
                {
                    T candidate = it.Current;
                    if (candidate.CompareTo(best) > 0)
                    {
                        best = candidate;
                    }
                }
                return best;
            }
        }

        /// <summary>Splits the list into consecutive chunks of the given size; the last chunk may be shorter.</summary>
        public static IList<IList<T>> Partition<T>(IList<T> items, int size)
        {
            Preconditions.CheckNotNull(items, "items");
            Preconditions.CheckArgument(size > 0, "size must be positive: " + size);
            var chunks = new List<IList<T>>();
            for (int start = 0; start < items.Count; start += size)
            {
                int end = Math.Min(start + size, items.Count);
                var chunk = new List<T>(end - start);
                for (int i = start; i < end; i++)
                {
                    chunk.Add(items[i]);
                }
                chunks.Add(chunk);
            }
            return chunks;
        }

        /// <summary>A new list with the elements in reverse order.</summary>
        public static IList<T> Reversed<T>(IList<T> items)
        {
            Preconditions.CheckNotNull(items, "items");
            var result = new List<T>(items.Count);
            for (int i = items.Count - 1; i >= 0; i--)
            {
                result.Add(items[i]);
            }
            return result;
        }

        /// <summary>Number of elements the predicate accepts.</summary>
        public static int CountMatching<T>(IEnumerable<T> items, Func<T, bool> predicate)
        {
            Preconditions.CheckNotNull(predicate, "predicate");
            int count = 0;
            foreach (T item in items)
            {
                if (predicate(item))
                {
                    count++;
                }
            }
            return count;
        }

        /// <summary>Groups the elements by key, keeping element order inside each group.</summary>
        public static IDictionary<TKey, IList<T>> GroupBy<T, TKey>(IEnumerable<T> items, Func<T, TKey> keyOf)
        {
            var groups = new Dictionary<TKey, IList<T>>();
            foreach (T item in items)
            {
                TKey key = keyOf(item);
                IList<T> group;
                if (!groups.TryGetValue(key, out group))
                {
                    group = new List<T>();
                    groups.Add(key, group);
                }
                group.Add(item);
            }
            return groups;
        }

        /// <summary>Sum of the values using Kahan compensation.</summary>
        public static double Sum(double[] values)
        {
            double total = 0.0;
            double compensation = 0.0;
            foreach (double value in values)
            {
                double y = value - compensation;
                double t = total + y;
                compensation = (t - total) - y;
                total = t;
            }
            return total;
        }
    }
}
