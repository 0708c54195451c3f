using System;
using System.Collections;
using System.Globalization;
using System.Text;

namespace Acme.Common
{
    /// <summary>Small string helpers.</summary>
    public static class StringUtils
    {
        /// <summary>True for null, empty, or whitespace-only text.</summary>
        public static bool IsBlank(string text)
        {
            if (text == null)
            {
                return true;
            }
            for (int i = 0; i < text.Length; i++)
            {
                if (!char.IsWhiteSpace(text[i]))
                {
                    return false;
                }
            }
            return true;
        }

        public static string Repeat(string text, int times)
        {
            Preconditions.CheckArgument(times >= 0, "times must not be negative: " + times);
            var sb = new StringBuilder(text.Length * times);
            for (int i = 0; i < times; i++)
            {
                sb.Append(text);
            }
            return sb.ToString();
        }

        /// <summary>Left-pads the text with the pad character up to the width; longer text is returned unchanged.</summary>
        public static string PadLeft(string text, int width, char pad)
        {
            if (text.Length >= width)
            {
                return text;
            }
            var sb = new StringBuilder(width);
            for (int i = text.Length; i < width; i++)
            {
                sb.Append(pad);
            }
            return sb.Append(text).ToString();
        }

        public static string Capitalize(string text)
        {
            if (string.IsNullOrEmpty(text))
            {
                return text;
            }
            return char.ToUpperInvariant(text[0]) + text.Substring(1);
        }

        /// <summary>Joins the string forms of the parts with the separator.</summary>
        public static string Join(string separator, IEnumerable parts)
        {
            var sb = new StringBuilder();
            bool first = true;
            foreach (object part in parts)
            {
                if (!first)
                {
                    sb.Append(separator);
                }
                sb.Append(part == null ? "null" : Convert.ToString(part, CultureInfo.InvariantCulture));
                first = false;
            }
            return sb.ToString();
        }

        /// <summary>"BoundingBox" -> "bounding_box", "parseXML" -> "parse_xml".</summary>
        public static string ToSnakeCase(string text)
        {
            var sb = new StringBuilder();
            for (int i = 0; i < text.Length; i++)
            {
                char c = text[i];
                if (char.IsUpper(c))
                {
                    bool previousLower = i > 0 && !char.IsUpper(text[i - 1]);
                    if (i > 0 && previousLower)
                    {
                        sb.Append('_');
                    }
                    sb.Append(char.ToLowerInvariant(c));
                }
                else
                {
                    sb.Append(c);
                }
            }
            return sb.ToString();
        }

        /// <summary>
        /// Rounds half away from zero to at most maxDecimals places and drops trailing zeros:
        /// 2.50 -> "2.5", 3.0 -> "3", -0.0 -> "0".
        /// </summary>
        public static string FormatNumber(double value, int maxDecimals)
        {
            Preconditions.CheckArgument(maxDecimals >= 0, "maxDecimals must not be negative: " + maxDecimals);
            if (double.IsNaN(value) || double.IsInfinity(value))
            {
                return value.ToString(CultureInfo.InvariantCulture);
            }
            double rounded = Math.Round(value, Math.Min(maxDecimals, 15), MidpointRounding.AwayFromZero);
            if (rounded == 0.0)
            {
                return "0";
            }
            string format = maxDecimals == 0 ? "0" : "0." + new string('#', maxDecimals);
            return rounded.ToString(format, CultureInfo.InvariantCulture);
        }
    }
}
