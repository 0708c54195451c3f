using System;
using System.Collections.Generic;

namespace Ledgerly.Accounting
{
    /// <summary>Factories and combinators for <see cref="IFilter{T}"/>.</summary>
    public static class Filters
    {
        public static IFilter<T> And<T>(IFilter<T> left, IFilter<T> right)
        {
            return new DelegateFilter<T>(value => left.Accepts(value) && right.Accepts(value));
        }

        public static IFilter<T> Not<T>(IFilter<T> inner)
        {
            return new DelegateFilter<T>(value => !inner.Accepts(value));
        }

        public static List<T> Apply<T>(IEnumerable<T> items, IFilter<T> filter)
        {
            var kept = new List<T>();
            foreach (T item in items)
            {
                if (filter.Accepts(item))
                {
                    kept.Add(item);
                }
            }
            return kept;
        }

        /// <summary>Transactions dated from (inclusive) to (inclusive).</summary>
        public static IFilter<Transaction> DateBetween(LedgerDate from, LedgerDate to)
        {
            if (to.IsBefore(from))
            {
                throw new ArgumentException("empty date range: " + from + " .. " + to);
            }
            return new DelegateFilter<Transaction>(tx => !tx.Date.IsBefore(from) && !to.IsBefore(tx.Date));
        }

        public static IFilter<Transaction> Involving(string accountCode)
        {
            return new DelegateFilter<Transaction>(tx => tx.Involves(accountCode));
        }

        /// <summary>Case-insensitive substring match on the description.</summary>
        public static IFilter<Transaction> DescriptionContains(string fragment)
        {
            string needle = fragment.ToLowerInvariant();
            return new DelegateFilter<Transaction>(tx => tx.Description.ToLowerInvariant().Contains(needle));
        }
    }
}
