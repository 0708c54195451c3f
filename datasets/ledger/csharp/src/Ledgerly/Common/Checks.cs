using System;

namespace Ledgerly.Common
{
    /// <summary>Argument checks and account-code arithmetic.</summary>
    public static class Checks
    {
        public static string RequireNonEmpty(string value, string name)
        {
            if (Text.IsBlank(value))
            {
                throw new ArgumentException(name + " must not be empty", name);
            }
            return value.Trim();
        }

        public static int RequirePositive(int value, string name)
        {
            if (value <= 0)
            {
                throw new ArgumentOutOfRangeException(name, name + " must be positive, got " + value);
            }
            return value;
        }

        /// <summary>Luhn check digit for a string of decimal digits.</summary>
        public static int LuhnDigit(string digits)
        {
            int sum = 0;
            bool doubleIt = true;
            for (int i = digits.Length - 1; i >= 0; i--)
            {
                char c = digits[i];
                if (c < '0' || c > '9')
                {
                    throw new ArgumentException("not a digit: '" + c + "'", "digits");
                }
                int d = c - '0';
                if (doubleIt)
                {
                    d *= 2;
                    if (d > 9)
                    {
                        d -= 9;
                    }
                }
                sum += d;
                doubleIt = !doubleIt;
            }
            return (10 - sum % 10) % 10;
        }

        /// <summary>A valid account code is four digits whose first digit is 1 to 5.</summary>
        public static bool IsValidAccountCode(string code)
        {
            if (code == null || code.Length != 4)
            {
                return false;
            }
            foreach (char c in code)
            {
                if (!char.IsDigit(c))
                {
                    return false;
                }
            }
            int head = code[0] - '0';
            return head >= 1 && head <= 5;
        }
    }
}
