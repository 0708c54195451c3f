using System;
using System.Collections.Generic;
using System.Text;

namespace Ledgerly.Common
{
    /// <summary>String helpers used by the readers, writers and reports.</summary>
    public static class Text
    {
        public static string Repeat(char c, int count)
        {
            if (count < 0)
            {
                throw new ArgumentOutOfRangeException("count", "count must not be negative: " + count);
            }
            return new string(c, count);
        }

        public static string PadLeft(string value, int width, char fill)
        {
            if (value.Length >= width)
            {
                return value;
            }
            return Repeat(fill, width - value.Length) + value;
        }

        public static string PadRight(string value, int width, char fill)
        {
            if (value.Length >= width)
            {
                return value;
            }
            return value + Repeat(fill, width - value.Length);
        }

        public static bool IsBlank(string value)
        {
            if (value == null)
            {
                return true;
            }
            foreach (char c in value)
            {
                if (!char.IsWhiteSpace(c))
                {
                    return false;
                }
            }
            return true;
        }

        /// <summary>Splits one CSV line; fields may be quoted and a doubled quote inside quotes is a literal quote.</summary>
        public static List<string> SplitCsv(string line)
        {
            var fields = new List<string>();
            var current = new StringBuilder();
            bool quoted = false;
            int i = 0;
            while (i < line.Length)
            {
                char c = line[i];
                if (quoted)
                {
                    if (c == '"')
                    {
                        if (i + 1 < line.Length && line[i + 1] == '"')
                        {
                            current.Append('"');
                            i++;
                        }
                        else
                        {
                            quoted = false;
                        }
                    }
                    else
                    {
                        current.Append(c);
                    }
                }
                else if (c == '"')
                {
                    quoted = true;
                }
                else if (c == ',')
                {
                    fields.Add(current.ToString());
                    current.Clear();
                }
                else
                {
                    current.Append(c);
                }
                i++;
            }
            if (quoted)
            {
                throw new FormatException("unterminated quote in: " + line);
            }
            fields.Add(current.ToString());
            return fields;
        }

        public static string EscapeCsv(string field)
        {
            bool needsQuotes = field.IndexOf(',') >= 0 || field.IndexOf('"') >= 0 || field.IndexOf('\n') >= 0;
            if (!needsQuotes)
            {
                return field;
            }
            return "\"" + field.Replace("\"", "\"\"") + "\"";
        }

        /// <summary>Lower-case ASCII slug: letters and digits kept, every other run becomes one '-'.</summary>
        public static string Slug(string value)
        {
            var sb = new StringBuilder();
            bool pendingDash = false;
            foreach (char c in value)
            {
                char lower = c;
                if (c >= 'A' && c <= 'Z')
                {
                    lower = (char)(c - 'A' + 'a');
                }
                bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
                if (keep)
                {
                    if (pendingDash && sb.Length > 0)
                    {
                        sb.Append('-');
                    }
                    sb.Append(lower);
                    pendingDash = false;
                }
                else
                {
                    pendingDash = true;
                }
            }
            return sb.ToString();
        }
    }
}
