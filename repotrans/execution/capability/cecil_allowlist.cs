// The rules (rules.tsv), the allowlist's predicates and the port's own framework references: part of cecil_checker.cs (compiled
// together, see checks.build_argv); capability/il_refs.py computes the same for the Python checker.
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;

partial class IlPolicy
{
    static void LoadRules(string path)
    {
        foreach (var raw in System.IO.File.ReadAllLines(path))
        {
            if (raw.Length == 0 || raw[0] == '#') continue;
            var f = raw.Split('\t');
            switch (f[0])
            {
                case "namespace": Namespaces.Add(new[] {f[1], f[2]}); break;
                case "type": Types[f[2]] = f[1]; break;
                case "member": Members[f[2]] = f[1]; break;
                case "path_member": PathMembers[f[2]] = f[1]; break;
                case "allowed": Allowed.Add(f[2]); break;
                case "harmless": Harmless.Add(f[2]); break;
                case "restricted": Restricted[f[2]] = new HashSet<string>(f[3].Split(',')); break;
                case "guarded": Guarded[f[2]] = f[1]; break;
                case "core":
                    if (f[1] == "namespace") CoreNamespaces.Add(f[2]);
                    else if (f[1] == "type") CoreTypes.Add(f[2]);
                    else if (f[1] == "typeref") CoreTypeRefs.Add(f[2]);
                    else if (f[1] == "member")
                    {
                        CoreMembers.Add(f[2]);
                        CoreTypeRefs.Add(f[2].Substring(0, f[2].IndexOf("::")));
                    }
                    else throw new InvalidOperationException("unknown core scope " + f[1] + " in " + path);
                    break;
                case "grant": Grants.Add(new[] {f[1], f[2]}); break;
                case "family": Families.Add(new[] {f[1], f[2]}); break;
                case "overload":
                    if (!Overloads.ContainsKey(f[2])) Overloads[f[2]] = new List<string[]>();
                    Overloads[f[2]].Add(new[] {f[1], f[3]});
                    break;
                case "null_only": NullOnly[f[2]] = f[1]; break;
                case "attribute": Attributes.Add(f[2]); break;
                case "hard":
                    if (f[2].Contains("::")) HardMembers[f[2]] = f[1];
                    else Hard.Add(new[] {f[1], f[2]});
                    break;
                default: throw new InvalidOperationException("unknown rule kind " + f[0] + " in " + path);
            }
            if (f.Length > 2 && f[2].Contains("::") && (f[0] == "member" || f[0] == "path_member" || f[0] == "allowed"
                || f[0] == "harmless" || f[0] == "overload" || f[0] == "hard" || (f[0] == "core" && f[1] == "member")))
                Ruled.Add(f[2].Substring(0, f[2].IndexOf("::")));
        }
        Ruled.UnionWith(CoreTypeRefs);
    }
    /// <summary>Whether a framework member is on the allowlist, of a port assembly, or used by the port's code.</summary>
    bool MemberAllowed(TypeReference element, string type, string key)
    {
        string outer = Norm(Outer(element).FullName);
        return Granted(type, Outer(element).Namespace) || CoreTypes.Contains(type) || CoreTypes.Contains(outer) || CoreNamespaces.Contains(Outer(element).Namespace)
               || CoreMembers.Contains(key) || Allowed.Contains(key) || refs.Assemblies.Contains(ScopeName(element))
               || refs.Allows(refs.Members, key, excluded) || refs.Allows(refs.Closure, type, excluded);
    }

    bool Granted(string full, string ns)
    {
        return Grants.Any(g => allowed.Contains(g[0]) && Under(full, ns, g[1]))
               || Families.Any(g => allowed.Contains(g[0]) && ns == g[1]);     // the types directly in a family's namespace
    }

    /// <summary>A rule's NAME covers a type: the type itself, its nested types, the types in that namespace or below.</summary>
    static bool Under(string full, string ns, string name)
    {
        return full == name || full.StartsWith(name + ".") || ns == name || ns.StartsWith(name + ".");
    }

    bool Own(TypeReference type)
    {
        var outer = Outer(type);
        return outer is TypeDefinition ? ((TypeDefinition)outer).Module == module
               : outer.Scope != null && outer.Scope.MetadataScopeType == MetadataScopeType.ModuleDefinition;
    }

    static TypeReference Outer(TypeReference type)
    {
        while (type.DeclaringType != null) type = type.DeclaringType;
        return type;
    }

    static string ScopeName(TypeReference type)
    {
        var scope = Outer(type).Scope;
        var asm = scope as AssemblyNameReference;
        return asm != null ? asm.Name : "";
    }

    static string Norm(string fullName) { return fullName.Replace('/', '.'); }

    static bool Framework(string name)
    {
        string n = name.ToLowerInvariant();
        return n == "mscorlib" || n == "netstandard" || n == "system" || n.StartsWith("system.") || n.StartsWith("microsoft.")
               || n.StartsWith("mono.") || n == "windowsbase" || n.StartsWith("presentation") || n.StartsWith("nunit")
               || n.StartsWith("xunit") || n.StartsWith("mstest");
    }

    static PortRefs Refs(string path)
    {
        PortRefs found;
        if (!RefsCache.TryGetValue(path, out found))
            RefsCache[path] = found = PortRefs.Read(ModuleDefinition.ReadModule(path, new ReaderParameters { ReadSymbols = false }));
        return found;
    }

    /// <summary>The framework types and members a port's build references, each with up to four of the
    /// members using it ("Ns.Type::Method"; "*" for declarations), and the non-framework assemblies it references.</summary>
    partial class PortRefs
    {
        public static readonly PortRefs Empty = new PortRefs();
        public readonly Dictionary<string, HashSet<string>> Types = new Dictionary<string, HashSet<string>>();
        public readonly Dictionary<string, HashSet<string>> Members = new Dictionary<string, HashSet<string>>();
        public readonly HashSet<string> Assemblies = new HashSet<string>();
        // framework value types the port's code holds (an enum like HttpStatusCode: data, no capability, even in
        // a capability's namespace), known from the signatures that encode them as value types
        public readonly Dictionary<string, HashSet<string>> ValueTypes = new Dictionary<string, HashSet<string>>();

        public bool Allows(Dictionary<string, HashSet<string>> table, string key, HashSet<string> excluded)
        {
            HashSet<string> groups;
            return table.TryGetValue(key, out groups) && groups.Any(g => !excluded.Contains(g));
        }

        static void Add(Dictionary<string, HashSet<string>> table, string key, string group)
        {
            HashSet<string> groups;
            if (!table.TryGetValue(key, out groups)) table[key] = groups = new HashSet<string>();
            if (groups.Count < 4) groups.Add(group);
        }

        void AddType(TypeReference t, string group, ModuleDefinition module)
        {
            if (t == null || t is GenericParameter) return;
            var spec = t as TypeSpecification;
            if (spec != null)
            {
                var gi = t as GenericInstanceType;
                if (gi != null) foreach (var a in gi.GenericArguments) AddType(a, group, module);
                AddType(spec.ElementType, group, module);
                return;
            }
            var outer = Outer(t);
            if (outer is TypeDefinition || (outer.Scope != null && outer.Scope.MetadataScopeType == MetadataScopeType.ModuleDefinition))
                return;
            Add(Types, Norm(t.FullName), group);
            if (t.IsValueType) Add(ValueTypes, Norm(t.FullName), group);
        }

        void AddMember(MemberReference m, string group, ModuleDefinition module)
        {
            var method = m as MethodReference;
            var field = m as FieldReference;
            if (field != null) AddType(field.FieldType, group, module);
            if (method != null)
            {
                AddType(method.ReturnType, group, module);
                foreach (var p in method.Parameters) AddType(p.ParameterType, group, module);
                var generic = method as GenericInstanceMethod;
                if (generic != null) foreach (var a in generic.GenericArguments) AddType(a, group, module);
            }
            if (m.DeclaringType == null) return;
            AddType(m.DeclaringType, group, module);
            var element = Element(m.DeclaringType);
            if (element is TypeDefinition) return;
            Add(Members, Norm(element.FullName) + "::" + m.Name, group);
            Seed(element, true, group);                                 // the signature closure (cecil_framework.cs)
            if (field != null) Seed(field.FieldType, false, group);
            if (method != null)
            {
                Seed(method.ReturnType, false, group);
                foreach (var p in method.Parameters) Seed(p.ParameterType, false, group);
                var generic = method as GenericInstanceMethod;
                if (generic != null) foreach (var a in generic.GenericArguments) Seed(a, false, group);
            }
        }

        public static PortRefs Read(ModuleDefinition module)
        {
            var refs = new PortRefs();
            foreach (var a in module.AssemblyReferences) if (!Framework(a.Name)) refs.Assemblies.Add(a.Name);
            foreach (var type in AllTypes(module))
            {
                refs.AddType(type.BaseType, "*", module);
                foreach (var i in type.Interfaces) refs.AddType(i.InterfaceType, "*", module);
                foreach (var f in type.Fields) refs.AddType(f.FieldType, "*", module);
                foreach (var m in type.Methods)
                {
                    string g = Group(m);
                    refs.AddType(m.ReturnType, g, module);
                    foreach (var p in m.Parameters) refs.AddType(p.ParameterType, g, module);
                    if (!m.HasBody) continue;
                    foreach (var v in m.Body.Variables) refs.AddType(v.VariableType, g, module);
                    foreach (var ins in m.Body.Instructions)
                    {
                        if (ins.Operand is TypeReference) refs.AddType((TypeReference)ins.Operand, g, module);
                        else if (ins.Operand is MemberReference) refs.AddMember((MemberReference)ins.Operand, g, module);
                    }
                }
            }
            refs.Close(new FrameworkTypes());
            return refs;
        }
    }

    /// <summary>The member a method's code belongs to, "Ns.Outer.Inner::Name": a lambda, closure or iterator
    /// method belongs to the member named in its (or its generated type's) angle brackets.</summary>
    static string Group(MethodDefinition m)
    {
        var t = m.DeclaringType;
        string name = null;
        while (t.DeclaringType != null && Generated(t.Name))
        {
            if (name == null && Bracketed(t.Name).Length > 0) name = Bracketed(t.Name);
            t = t.DeclaringType;
        }
        if (Generated(t.Name)) return "*";
        if (name == null) name = m.Name.StartsWith("<") && Bracketed(m.Name).Length > 0 ? Bracketed(m.Name) : m.Name;
        if (!name.StartsWith(".") && name.Contains(".")) name = name.Substring(name.LastIndexOf('.') + 1);
        return PlainName(t) + "::" + name;
    }

    static string Bracketed(string name)
    {
        if (!name.StartsWith("<")) return "";
        int end = name.IndexOf('>');
        return end > 0 ? name.Substring(1, end - 1) : "";
    }
}
