using System.Collections.Generic;

namespace Acme.Common
{
    /// <summary>Immutable pair of two values.</summary>
    public sealed class Pair<TFirst, TSecond>
    {
        private readonly TFirst first;
        private readonly TSecond second;

        public Pair(TFirst first, TSecond second)
        {
            this.first = first;
            this.second = second;
        }

        public TFirst First
        {
            get { return first; }
        }

        public TSecond Second
        {
            get { return second; }
        }

        public Pair<TSecond, TFirst> Swap()
        {
            return new Pair<TSecond, TFirst>(second, first);
        }

        public Pair<TFirst, TResult> WithSecond<TResult>(TResult newSecond)
        {
            return new Pair<TFirst, TResult>(first, newSecond);
        }

        public override bool Equals(object obj)
        {
            if (ReferenceEquals(this, obj))
            {
                return true;
            }
            var other = obj as Pair<TFirst, TSecond>;
            if (other == null)
            {
                return false;
            }
            return EqualityComparer<TFirst>.Default.Equals(first, other.first)
                && EqualityComparer<TSecond>.Default.Equals(second, other.second);
        }

        public override int GetHashCode()
        {
            unchecked
            {
                int h1 = first == null ? 0 : EqualityComparer<TFirst>.Default.GetHashCode(first);
                int h2 = second == null ? 0 : EqualityComparer<TSecond>.Default.GetHashCode(second);
                return 31 * h1 + h2;
            }
        }

        public override string ToString()
        {
            return "(" + (first == null ? "null" : first.ToString()) + ", "
                + (second == null ? "null" : second.ToString()) + ")";
        }
    }

    /// <summary>Factory for <see cref="Pair{TFirst, TSecond}"/> with type inference.</summary>
    public static class Pairs
    {
        public static Pair<TFirst, TSecond> Of<TFirst, TSecond>(TFirst first, TSecond second)
        {
            return new Pair<TFirst, TSecond>(first, second);
        }
    }
}
