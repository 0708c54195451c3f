using System.Collections.Generic;

namespace Ledgerly.Common
{
    /// <summary>An immutable pair of two values.</summary>
    public sealed class Pair<TFirst, TSecond>
    {
        public Pair(TFirst first, TSecond second)
        {
            First = first;
            Second = second;
        }

        public TFirst First { get; }

        public TSecond Second { get; }

        public Pair<TSecond, TFirst> Swap()
        {
            return new Pair<TSecond, TFirst>(Second, First);
        }

        public override bool Equals(object obj)
        {
            if (ReferenceEquals(this, obj))
            {
                return true;
            }
            var that = obj as Pair<TFirst, TSecond>;
            if (that == null)
            {
                return false;
            }
            return EqualityComparer<TFirst>.Default.Equals(First, that.First)
                && EqualityComparer<TSecond>.Default.Equals(Second, that.Second);
        }

        public override int GetHashCode()
        {
            unchecked
            {
                int hash = 17;
                hash = hash * 31 + (First == null ? 0 : First.GetHashCode());
                hash = hash * 31 + (Second == null ? 0 : Second.GetHashCode());
                return hash;
            }
        }

        public override string ToString()
        {
            return "(" + First + ", " + Second + ")";
        }
    }

    /// <summary>Factory that infers the type arguments of <see cref="Pair{TFirst, TSecond}"/>.</summary>
    public static class Pair
    {
        public static Pair<TFirst, TSecond> Of<TFirst, TSecond>(TFirst first, TSecond second)
        {
            return new Pair<TFirst, TSecond>(first, second);
        }
    }
}
