using System;

namespace Ledgerly.Accounting
{
    /// <summary>An <see cref="IFilter{T}"/> backed by a delegate (Java uses lambdas for these).</summary>
    public sealed class DelegateFilter<T> : IFilter<T>
    {
        private readonly Func<T, bool> predicate;

        public DelegateFilter(Func<T, bool> predicate)
        {
            if (predicate == null)
            {
                throw new ArgumentNullException("predicate");
            }
            this.predicate = predicate;
        }

        public bool Accepts(T value)
        {
            return predicate(value);
        }
    }
}
