using System;
using System.Text;

namespace Ledgerly.Reporting
{
    /// <summary>Formatting of cent amounts for reports.</summary>
    public static class Amounts
    {
        /// <summary>Digits of a non-negative number with ',' between groups of three: 1234567 -> "1,234,567".</summary>
        public static string GroupThousands(long value)
        {
            if (value < 0)
            {
                throw new ArgumentOutOfRangeException("value", "value must not be negative: " + value);
            }
            string digits = value.ToString();
            var sb = new StringBuilder();
            int lead = digits.Length % 3;
            for (int i = 0; i < digits.Length; i++)
            {
                if (i > 0 && (i - lead) % 3 == 0)
                {
                    sb.Append(',');
                }
                sb.Append(digits[i]);
            }
            return sb.ToString();
        }

        public static string Format(long cents, AmountStyle style)
        {
            long abs = Math.Abs(cents);
            long frac = abs % 100;
            string fraction = (frac < 10 ? "0" : "") + frac;
            switch (style)
            {
                case AmountStyle.Plain:
                    return (cents < 0 ? "-" : "") + (abs / 100) + "." + fraction;
                case AmountStyle.Accounting:
                    {
                        string body = GroupThousands(abs / 100) + "." + fraction;
                        return cents < 0 ? "(" + body + ")" : body;
                    }
                case AmountStyle.Signed:
                    return (cents < 0 ? "-" : "+") + GroupThousands(abs / 100) + "." + fraction;
                default:
                    throw new ArgumentOutOfRangeException("style", "unknown style: " + style);
            }
        }

        /// <summary>Parses a style name case-insensitively ("accounting", "Plain").</summary>
        public static AmountStyle ParseStyle(string name)
        {
            string trimmed = name.Trim();
            foreach (AmountStyle style in Enum.GetValues(typeof(AmountStyle)))
            {
                if (string.Equals(style.ToString(), trimmed, StringComparison.OrdinalIgnoreCase))
                {
                    return style;
                }
            }
            throw new ArgumentException("unknown amount style: " + name, "name");
        }
    }
}
