using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Acme.Geo.Measure
{
    /// <summary>Alternative unit names ("metre", "feet", ...) read from an embedded resource.</summary>
    public sealed class UnitAliases
    {
        private const string ResourceName = "Acme.Geo.Resources.unit-aliases.properties";

        private readonly SortedDictionary<string, LengthUnit> aliases;

        private UnitAliases(SortedDictionary<string, LengthUnit> aliases)
        {
            this.aliases = aliases;
        }

        /// <summary>
        /// Parses lines "alias = symbol"; blank lines and lines starting with '#' are skipped.
        /// Aliases are case-insensitive.
        /// </summary>
        public static UnitAliases Parse(string text)
        {
            var map = new SortedDictionary<string, LengthUnit>(StringComparer.Ordinal);
            string[] lines = text.Split('\n');
            for (int i = 0; i < lines.Length; i++)
            {
                string line = lines[i].Trim();
                if (line.Length == 0 || line.StartsWith("#", StringComparison.Ordinal))
                {
                    continue;
                }
                int eq = line.IndexOf('=');
                if (eq <= 0)
                {
                    throw new GeometryException("line " + (i + 1) + ": expected 'alias = symbol'");
                }
                string alias = line.Substring(0, eq).Trim().ToLowerInvariant();
                string symbol = line.Substring(eq + 1).Trim();
                map[alias] = LengthUnitExtensions.FromSymbol(symbol);
            }
            return new UnitAliases(map);
        }

        /// <summary>Aliases bundled with the library.</summary>
        public static UnitAliases LoadDefault()
        {
            using (Stream stream = typeof(UnitAliases).Assembly.GetManifestResourceStream(ResourceName))
            {
                if (stream == null)
                {
                    throw new InvalidOperationException("missing resource " + ResourceName);
                }
                using (var reader = new StreamReader(stream, Encoding.UTF8))
                {
                    UnitAliases result = Parse(reader.ReadToEnd());
#if ACME_GEO_TRACE
                    System.Diagnostics.Trace.WriteLine("Acme.Geo: loaded " + result.Count + " unit aliases");
#endif
                    return result;
                }
            }
        }

        /// <summary>Unit for an alias (case-insensitive) or, failing that, for an exact symbol.</summary>
        public LengthUnit Resolve(string name)
        {
            LengthUnit unit;
            if (aliases.TryGetValue(name.Trim().ToLowerInvariant(), out unit))
            {
                return unit;
            }
            return LengthUnitExtensions.FromSymbol(name.Trim());
        }

        public int Count
        {
            get { return aliases.Count; }
        }

        /// <summary>Known aliases in sorted order.</summary>
        public IList<string> Names()
        {
            return new List<string>(aliases.Keys);
        }
    }
}
