// The allowlist's signature closure: part of cecil_checker.cs (compiled together, see checks.build_argv);
// capability/il_framework.py and il_refs.py's _closure compute the same for the Python checker.
//
// The types a framework member the port uses returns or takes, and the base classes of those and of its declaring
// type, are closure types (any member of theirs may be used, under the same deny rules), and so, in turn, are the
// types their public members' signatures name. A type enters only when it lies in a family's namespace (System.Xml,
// System.Xml.Linq, System.Xml.XPath) and no rule names it (Admitted).
// The framework is read from mono's framework folder (where its mscorlib lives) and its Facades, type forwarders
// followed; a type found in none of them has no base class and no members here. A type is (assembly name, full
// name, nested types joined by '/').
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Mono.Cecil;

partial class IlPolicy
{
    const int Forwards = 8;         // forwarders followed per type (netstandard -> mscorlib is one)
    const int Chain = 32;           // base classes followed per type
    // types a rule opens or closes member by member, or keeps to signatures (il_rules.py's `ruled`)
    static readonly HashSet<string> Ruled = new HashSet<string>();

    /// <summary>Whether the closure may admit a framework type (il_allow.admitted): it lies directly in a family's
    /// namespace (the in-memory API families rules.tsv audits whole), and no rule names it, an enclosing type or its
    /// namespace, nor a member of it or of an enclosing type, nor keeps it to signatures.</summary>
    static bool Admitted(string full, string ns)
    {
        return Families.Any(f => f[1] == ns)
               && !(Types.ContainsKey(full) || Restricted.ContainsKey(full) || Guarded.ContainsKey(full) || NullOnly.ContainsKey(full)
                    || Namespaces.Concat(Hard).Concat(Grants).Any(r => Under(full, ns, r[1]))
                    || Ruled.Any(n => full == n || full.StartsWith(n + ".")));
    }

    /// <summary>The framework assemblies read so far, by name.</summary>
    class FrameworkTypes
    {
        readonly string[] dirs;
        readonly Dictionary<string, ModuleDefinition> modules = new Dictionary<string, ModuleDefinition>();

        public FrameworkTypes()
        {
            string root = Path.GetDirectoryName(typeof(object).Assembly.Location);
            dirs = new[] { root, Path.Combine(root, "Facades") };
        }

        ModuleDefinition Module(string name)
        {
            ModuleDefinition found;
            if (modules.TryGetValue(name, out found)) return found;
            var path = dirs.Select(d => Path.Combine(d, name + ".dll")).FirstOrDefault(File.Exists);
            try { found = path == null ? null : ModuleDefinition.ReadModule(path, new ReaderParameters { ReadSymbols = false }); }
            catch (BadImageFormatException) { found = null; }
            return modules[name] = found;
        }

        /// <summary>The definition of a type and the assembly declaring it, forwarders followed; null if not read.</summary>
        TypeDefinition Find(string scope, string full, out string where)
        {
            where = scope;
            for (int i = 0; i < Forwards; i++)
            {
                var module = Module(where);
                if (module == null) return null;
                var type = module.GetType(full);
                if (type != null) return type;
                string outer = full.Split('/')[0];
                var forward = module.ExportedTypes.FirstOrDefault(e => e.DeclaringType == null && e.FullName == outer
                                                                       && e.Scope is AssemblyNameReference);
                if (forward == null) return null;
                where = ((AssemblyNameReference)forward.Scope).Name;
            }
            return null;
        }

        /// <summary>The base class of a type (null for an interface, System.Object or a type not read).</summary>
        public string[] Base(string scope, string full)
        {
            string where;
            var type = Find(scope, full, out where);
            if (type == null || type.BaseType == null) return null;
            var b = type.BaseType is GenericInstanceType ? ((GenericInstanceType)type.BaseType).ElementType : type.BaseType;
            return Elements(b, where).FirstOrDefault();
        }

        /// <summary>The types the signatures of a type's public methods and fields name.</summary>
        public List<string[]> SignatureTypes(string scope, string full)
        {
            string where;
            var type = Find(scope, full, out where);
            var found = new List<string[]>();
            if (type == null) return found;
            foreach (var m in type.Methods.Where(m => m.IsPublic))
            {
                found.AddRange(Elements(m.ReturnType, where));
                foreach (var p in m.Parameters) found.AddRange(Elements(p.ParameterType, where));
            }
            foreach (var f in type.Fields.Where(f => f.IsPublic)) found.AddRange(Elements(f.FieldType, where));
            return found;
        }
    }

    /// <summary>The named types a signature type is made of (generic arguments, array elements), each with the
    /// assembly it lives in (`own`: the assembly whose metadata names it; "" for the port's own).</summary>
    static List<string[]> Elements(TypeReference t, string own)
    {
        var found = new List<string[]>();
        if (t == null || t is GenericParameter || t is FunctionPointerType) return found;
        var gi = t as GenericInstanceType;
        if (gi != null)
        {
            found.AddRange(Elements(gi.ElementType, own));
            foreach (var a in gi.GenericArguments) found.AddRange(Elements(a, own));
            return found;
        }
        var spec = t as TypeSpecification;
        if (spec != null) return Elements(spec.ElementType, own);
        var outer = Outer(t);
        var scope = outer.Scope as AssemblyNameReference;
        found.Add(new[] { outer is TypeDefinition || scope == null ? own : scope.Name, t.FullName });
        return found;
    }

    partial class PortRefs
    {
        // the signature closure: framework types whose members may be used
        public readonly Dictionary<string, HashSet<string>> Closure = new Dictionary<string, HashSet<string>>();
        // (assembly, type, "1": only its bases) -> the members reaching it
        readonly Dictionary<string, HashSet<string>> seeds = new Dictionary<string, HashSet<string>>();
        // (assembly \t type) -> the members reaching it, while the closure is computed
        readonly Dictionary<string, HashSet<string>> members = new Dictionary<string, HashSet<string>>();

        void Seed(TypeReference t, bool basesOnly, string group)
        {
            foreach (var e in Elements(t, ""))
            {
                string key = e[0] + "\t" + e[1] + "\t" + (basesOnly ? "1" : "0");
                HashSet<string> groups;
                if (!seeds.TryGetValue(key, out groups)) seeds[key] = groups = new HashSet<string>();
                groups.Add(group);
            }
        }

        /// <summary>Each seed type (only its bases, for a member's declaring type) and its base classes up to the
        /// first outside the family namespaces (Outside), where admitted, with the seeds' groups; then, until nothing
        /// changes, each admitted type a closure type's public members' signatures name, and its bases, with that
        /// closure type's groups (il_refs._closure).</summary>
        void Close(FrameworkTypes fw)
        {
            var work = new List<string[]>();
            foreach (var seed in seeds.OrderBy(s => s.Key, StringComparer.Ordinal))
            {
                var parts = seed.Key.Split('\t');
                var seedType = new[] { parts[0], parts[1] };
                if (!Outside(seedType)) work.AddRange(Reach(fw, parts[2] == "1" ? fw.Base(parts[0], parts[1]) : seedType, seed.Value));
            }
            while (work.Count > 0)
            {
                var t = work[0];
                work.RemoveAt(0);
                foreach (var x in fw.SignatureTypes(t[0], t[1]))
                    if (Ok(x)) work.AddRange(Reach(fw, x, members[t[0] + "\t" + t[1]]));
            }
            foreach (var m in members.OrderBy(m => m.Key, StringComparer.Ordinal))
                foreach (var g in m.Value.OrderBy(g => g, StringComparer.Ordinal)) Add(Closure, Norm(m.Key.Split('\t')[1]), g);
        }

        /// <summary>A type and its bases within the families, where admitted: those whose groups grew.</summary>
        List<string[]> Reach(FrameworkTypes fw, string[] current, HashSet<string> groups)
        {
            var grew = new List<string[]>();
            var adding = groups.OrderBy(g => g, StringComparer.Ordinal).ToList();
            for (int i = 0; i < Chain && current != null && !Outside(current); i++)
            {
                if (Ok(current))
                {
                    string key = current[0] + "\t" + current[1];
                    HashSet<string> had;
                    int before = members.TryGetValue(key, out had) ? had.Count : 0;
                    foreach (var g in adding) Add(members, key, g);
                    if (members[key].Count > before) grew.Add(current);
                }
                current = fw.Base(current[0], current[1]);
            }
            return grew;
        }

        readonly Dictionary<string, bool> known = new Dictionary<string, bool>();

        bool Ok(string[] t)
        {
            bool ok;
            string key = t[0] + "\t" + t[1];
            if (!known.TryGetValue(key, out ok))
                known[key] = ok = Framework(t[0]) && Admitted(Norm(t[1]), Namespace(t[1]));
            return ok;
        }

        /// <summary>Outside the family namespaces, where no type is admitted: its bases are not read.</summary>
        static bool Outside(string[] t)
        {
            string ns = Namespace(t[1]);
            return !Families.Any(f => f[1] == ns);
        }

        static string Namespace(string full)
        {
            string outer = full.Split('/')[0];
            return outer.Contains(".") ? outer.Substring(0, outer.LastIndexOf('.')) : "";
        }
    }
}
