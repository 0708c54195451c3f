using System;
using System.Collections.Generic;

namespace Ledgerly.Common
{
    /// <summary>Generic collection helpers.</summary>
    public static class Grouping
    {
        /// <summary>Groups items by key, keeping items of each group in input order.</summary>
        public static Dictionary<TKey, List<TValue>> GroupBy<TKey, TValue>(IList<TValue> items, Func<TValue, TKey> key)
        {
            var groups = new Dictionary<TKey, List<TValue>>();
            foreach (TValue item in items)
            {
                TKey k = key(item);
                List<TValue> bucket;
                if (!groups.TryGetValue(k, out bucket))
                {
                    bucket = new List<TValue>();
                    groups.Add(k, bucket);
                }
                bucket.Add(item);
            }
            return groups;
        }

        public static long SumBy<T>(IList<T> items, Func<T, long> value)
        {
            long total = 0;
            foreach (T item in items)
            {
                total += value(item);
            }
            return total;
        }

        /// <summary>Splits a list into consecutive chunks of at most size elements.</summary>
        public static List<List<T>> Chunk<T>(IList<T> items, int size)
        {
            Checks.RequirePositive(size, "size");
            var chunks = new List<List<T>>();
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
    }
}
