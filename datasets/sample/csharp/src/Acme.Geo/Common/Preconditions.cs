using System;
using System.Globalization;

namespace Acme.Common
{
    /// <summary>Argument checks shared by the whole library.</summary>
    public static class Preconditions
    {
        /// <summary>Throws <see cref="ArgumentException"/> with the given message when the condition is false.</summary>
        public static void CheckArgument(bool condition, string message)
        {
            if (!condition)
            {
                throw new ArgumentException(message);
            }
        }

        /// <summary>Returns the value, or throws <see cref="ArgumentNullException"/> naming the argument.</summary>
        public static T CheckNotNull<T>(T value, string name) where T : class
        {
            if (value == null)
            {
                throw new ArgumentNullException(name, name + " must not be null");
            }
            return value;
        }

        /// <summary>Returns the index when 0 &lt;= index &lt; size.</summary>
        public static int CheckIndex(int index, int size)
        {
            if (size < 0)
            {
                throw new ArgumentException("size must not be negative: " + size);
            }
            if (index < 0 || index >= size)
            {
                throw new ArgumentOutOfRangeException("index", "index " + index + " out of range [0, " + size + ")");
            }
            return index;
        }

        /// <summary>Returns the value when it is strictly positive (NaN is rejected).</summary>
        public static double CheckPositive(double value, string name)
        {
            if (!(value > 0.0))
            {
                throw new ArgumentOutOfRangeException(name, name + " must be positive: " + value.ToString(CultureInfo.InvariantCulture));
            }
            return value;
        }
    }
}
