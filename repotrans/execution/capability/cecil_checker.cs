// repotrans's capability policy on a candidate's compiled IL (Mono.Cecil; nothing is loaded or run).
//
// It inspects the candidate member, every method and type the candidate brought (new or changed
// against the baseline assembly: helpers, nested types, field initialisers) and the compiler-generated
// code they reach (lambda methods, closure and iterator classes, cached delegates), and names every
// reference to a capability a translated method has no business with: reflection and dynamic
// invocation, interop and raw memory, the test framework, process and runtime control, raw console
// handles, the file system.
//
// The rule lists are data: rules.tsv, read from this program's folder (il_check.py reads the same file).
//
// usage: mono cecil_checker.exe            stdin: one job per line, tab-separated, then a line END:
//   CANDIDATE.dll  BASELINE.dll|-  TYPE (Ns.Outer.Inner)  IL-NAMES (get_X,set_X)  ARITY (-1 any)  ALLOWED (cap,cap|-)
//   [PARAMETER TYPES' SIMPLE NAMES (Int32,String[],ISet|-): picks one overload of that arity]
//   [REFS.dll|-: the port's own build whose framework references the candidate may use (default BASELINE)]
// Beyond the deny rules, a reference must be on the allowlist (rules.tsv's core entries), of the
// candidate's own assembly or a non-framework assembly REFS references, or a framework type or member that
// REFS's code references outside the candidate member's own methods; else "DENY unlisted".
// stdout per job: "DENY <capability>\t<api>\t<method>" lines, then "DONE <inspected methods> <ms> <cpu ms>"
//   (<ms>: the job's wall time; <cpu ms>: the process's CPU time so far, start-up and JIT included);
//   a job that cannot be read: "ERROR <text>" then "DONE 0 <ms> <cpu ms>".
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Mono.Cecil;
using Mono.Cecil.Cil;

partial class IlPolicy
{
    // the rules: rules.tsv next to this program (package data shared with il_check.py)
    static readonly List<string[]> Namespaces = new List<string[]>();                   // (capability, prefix)
    static readonly Dictionary<string, string> Types = new Dictionary<string, string>();  // full name -> capability
    static readonly Dictionary<string, string> Members = new Dictionary<string, string>(); // "Type::member"
    static readonly Dictionary<string, string> PathMembers = new Dictionary<string, string>(); // first parameter a string
    static readonly HashSet<string> Allowed = new HashSet<string>();                    // members of guarded types
    static readonly HashSet<string> Harmless = new HashSet<string>();                   // denied types' name readers
    static readonly Dictionary<string, HashSet<string>> Restricted = new Dictionary<string, HashSet<string>>();
    static readonly Dictionary<string, string> Guarded = new Dictionary<string, string>();
    // the allowlist: core entries, and the hard-deny set no allowance but a Java original's lifts
    static readonly HashSet<string> CoreNamespaces = new HashSet<string>();
    static readonly HashSet<string> CoreTypes = new HashSet<string>();                  // every member
    static readonly HashSet<string> CoreMembers = new HashSet<string>();                // "Type::member"
    static readonly HashSet<string> CoreTypeRefs = new HashSet<string>();               // in signatures only
    static readonly List<string[]> Hard = new List<string[]>();                         // (capability, name)
    static readonly List<string[]> Grants = new List<string[]>();                       // (capability, name)
    static readonly Dictionary<string, string> HardMembers = new Dictionary<string, string>();
    static readonly List<string[]> Families = new List<string[]>();                     // (capability, namespace)
    static readonly Dictionary<string, List<string[]>> Overloads = new Dictionary<string, List<string[]>>();  // key -> (capability, params)
    static readonly Dictionary<string, string> NullOnly = new Dictionary<string, string>();   // type -> capability
    static readonly Dictionary<string, PortRefs> RefsCache = new Dictionary<string, PortRefs>();

    static readonly Regex Numbering = new Regex(@"(?<=(m__|c__AnonStorey|c__Iterator|c__async|am\$cache|DisplayClass|<>__|\$)\w*?)\d+");

    HashSet<string> allowed;
    HashSet<string> excluded;                   // the candidate member's own group: its baseline body grants nothing
    PortRefs refs;
    ModuleDefinition module;
    SortedDictionary<string, string> denials = new SortedDictionary<string, string>();   // "cap\tapi" -> where
    string where;

    static int Main()
    {
        LoadRules(System.IO.Path.Combine(System.IO.Path.GetDirectoryName(typeof(IlPolicy).Assembly.Location),
                                         "rules.tsv"));
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Trim() == "END") break;        // a sandbox may never close stdin (docker exec)
            if (line.Trim().Length == 0) continue;
            var watch = Stopwatch.StartNew();
            int inspected = 0;
            try
            {
                var job = line.Split('\t');
                var policy = new IlPolicy { allowed = new HashSet<string>(job[5] == "-" ? new string[0] : job[5].Split(',')) };
                string[] types = job.Length > 6 && job[6] != "-" ? job[6].Split(',') : null;
                string refsPath = job.Length > 7 && job[7] != "-" ? job[7] : job[1];
                policy.excluded = new HashSet<string>(job[3].Split(',').Select(n => job[2] + "::" + n));
                policy.counterpart = job[2];
                policy.refs = refsPath == "-" ? PortRefs.Empty : Refs(refsPath);
                inspected = policy.Check(job[0], job[1], job[2], job[3].Split(','), int.Parse(job[4]), types);
                foreach (var d in policy.denials) Console.Out.WriteLine("DENY " + d.Key + "\t" + d.Value);
            }
            catch (Exception e)
            {
                Console.Out.WriteLine("ERROR " + e.GetType().Name + ": " + e.Message.Replace("\n", " "));
            }
            Console.Out.WriteLine("DONE " + inspected + " " + watch.ElapsedMilliseconds + " "
                                  + (long) Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds);
            Console.Out.Flush();
        }
        return 0;
    }

    int Check(string candidatePath, string baselinePath, string typeName, string[] names, int arity, string[] types)
    {
        var parameters = new ReaderParameters { ReadSymbols = false, ReadingMode = ReadingMode.Deferred };
        module = ModuleDefinition.ReadModule(candidatePath, parameters);
        var allTypes = AllTypes(module).ToList();
        var roots = new List<MethodDefinition>();
        var owner = allTypes.FirstOrDefault(t => PlainName(t) == typeName);
        if (owner != null)
            roots.AddRange(owner.Methods.Where(m => names.Any(n => m.Name == n || m.Name.EndsWith("." + n))
                                                    && (arity < 0 || m.Parameters.Count == arity)));
        if (owner != null && roots.Count == 0)      // not found by name: the whole declaring type
            roots.AddRange(owner.Methods);
        var exact = types == null ? roots : roots.Where(m => m.Parameters.Select(p => Simple(p.ParameterType))
                                                                     .SequenceEqual(types)).ToList();
        if (exact.Count > 0 && exact.Count < roots.Count) roots = exact;     // that overload, not its siblings
        var members = new HashSet<MethodDefinition>(roots);                 // the member's own methods: the tests call them
        var added = new List<TypeDefinition>();     // the types the candidate declared (none known without a baseline)
        HashSet<string> known = null;               // the baseline's method keys
        if (baselinePath != "-")
        {
            var baseModule = ModuleDefinition.ReadModule(baselinePath, parameters);
            var baseTypes = new HashSet<string>(AllTypes(baseModule).Select(t => t.FullName));
            added = allTypes.Where(t => !baseTypes.Contains(t.FullName)).ToList();
            known = new HashSet<string>(AllTypes(baseModule).SelectMany(t => t.Methods).Select(Key));
            roots.AddRange(allTypes.SelectMany(t => t.Methods).Where(m => !known.Contains(Key(m))));
            // a type of its own declared outside the port's namespaces (a candidate that closed its class and
            // namespace: NUnit.Framework.SuccessException, System.NotImplementedException): never the port's
            var spaces = new HashSet<string>(baseModule.Types.Select(t => t.Namespace ?? ""));
            foreach (var t in module.Types)
                if (!spaces.Contains(t.Namespace ?? "") && !Generated(t.Name))
                {
                    where = t.FullName;
                    Deny("declaration", "a type declared in namespace " + t.Namespace + ", where this port declares none");
                }
        }
        var seen = new HashSet<MethodDefinition>();
        var seenTypes = new HashSet<TypeDefinition>();
        var work = new Stack<MethodDefinition>(roots);
        while (work.Count > 0)
        {
            var method = work.Pop();
            if (!seen.Add(method)) continue;
            foreach (var reached in Inspect(method, module))
            {
                var type = reached as TypeDefinition ?? (reached as MethodDefinition)?.DeclaringType;
                if (reached is MethodDefinition && Generated(((MethodDefinition)reached).Name))
                    work.Push((MethodDefinition)reached);
                else if (type != null && GeneratedType(type) && Changed(type, known, members) && seenTypes.Add(type))
                    foreach (var t in Nested(type))
                    {
                        foreach (var f in t.Fields) { where = t.FullName + "::" + f.Name; CheckType(f.FieldType); }
                        foreach (var m in t.Methods) work.Push(m);
                    }
            }
        }
        if (allowed.Contains("file_system")) CheckPathScope(seen, members);      // cecil_path.cs
        CheckTypeSafety(candidatePath, seen, added);
        return seen.Count;
    }

    /// <summary>Names every denied reference of one method; returns the definitions of this module it reaches.</summary>
    IEnumerable<IMemberDefinition> Inspect(MethodDefinition method, ModuleDefinition module)
    {
        where = method.DeclaringType.FullName + "::" + method.Name;
        var reached = new List<IMemberDefinition>();
        if (method.IsPInvokeImpl || method.IsInternalCall || method.IsUnmanaged || method.HasPInvokeInfo)
            Deny("interop", "extern method " + method.Name + " (DllImport / extern)");
        CheckType(method.ReturnType);
        foreach (var p in method.Parameters) CheckType(p.ParameterType);
        if (!method.HasBody) return reached;
        if (allowed.Contains("reflection")) CheckReflectionScope(method);     // cecil_reflect.cs
        foreach (var v in method.Body.Variables)
        {
            if (v.IsPinned) Deny("unsafe", "fixed (a pinned pointer: unsafe code)");
            CheckType(v.VariableType);
        }
        var code = method.Body.Instructions;
        for (int i = 0; i < code.Count; i++)
        {
            var ins = code[i];
            var op = ins.OpCode.Code;
            if (op == Code.Calli) Deny("unsafe", "calli (a call through a function pointer)");
            else if (op == Code.Localloc) Deny("unsafe", "stackalloc");
            else if (op == Code.Cpblk || op == Code.Initblk) Deny("unsafe", "raw memory block copy");
            else if (op == Code.Mkrefany || op == Code.Refanyval || op == Code.Refanytype || op == Code.Arglist)
                Deny("unsafe", "__makeref / __arglist");
            else if ((op == Code.Ldftn || op == Code.Ldvirtftn) && !MakesDelegate(code, i))
                Deny("unsafe", "a function pointer (ldftn not made into a delegate)");
            var member = ins.Operand as MemberReference;
            if (member is MethodReference && AssemblyOf((MethodReference)member) && !OfOwnType(code, i))
                Deny("test_content", Norm(Element(member.DeclaringType).FullName) + "::" + member.Name
                                     + " of a type that is not typeof(one of this assembly's types)");
            if (ins.Operand is TypeReference) CheckType((TypeReference)ins.Operand);
            else if (member != null) CheckMember(member, op);
            if (member != null) CheckNullOnly(code, i, member, op);
            if (member is MethodReference || member is FieldReference)
            {
                var def = Local(member, module);
                if (def != null) reached.Add(def);
            }
        }
        return reached;
    }

    /// <summary>A value of a null_only type (rules.tsv) handed on: a call's argument (only the last parameter, right
    /// after ldnull) or a field store (right after ldnull); anything else is denied (il_check._null_only).</summary>
    void CheckNullOnly(Mono.Collections.Generic.Collection<Instruction> code, int i, MemberReference member, Code op)
    {
        bool afterNull = i > 0 && code[i - 1].OpCode.Code == Code.Ldnull;
        var kinds = new List<TypeReference>();
        var method = member as MethodReference;
        var field = member as FieldReference;
        if (method != null) kinds.AddRange(method.Parameters.Select(p => p.ParameterType));
        else if (field != null && (op == Code.Stfld || op == Code.Stsfld)) kinds.Add(field.FieldType);
        for (int n = 0; n < kinds.Count; n++)
        {
            string name = Norm(kinds[n].FullName), cap;
            if (NullOnly.TryGetValue(name, out cap) && !(afterNull && n == kinds.Count - 1))
                Deny(cap, name + " other than null handed to " + Norm(Element(member.DeclaringType).FullName) + "::" + member.Name);
        }
    }

    /// <summary>A member giving the assembly of a Type value (Type.Assembly, TypeInfo.Assembly,
    /// Assembly.GetAssembly): from a type the test passed in (a lambda's closure, a test's subclass) it is
    /// the test assembly, whose embedded resources may hold the expected values.</summary>
    static bool AssemblyOf(MethodReference method)
    {
        string type = Element(method.DeclaringType).FullName;
        return (method.Name == "get_Assembly" && (type == "System.Type" || type == "System.Reflection.TypeInfo"))
               || (method.Name == "GetAssembly" && type == "System.Reflection.Assembly");
    }

    /// <summary>Whether the Type value before code[i] is typeof(T) for a type T of this assembly:
    /// ldtoken T; call Type.GetTypeFromHandle [; call IntrospectionExtensions.GetTypeInfo].</summary>
    bool OfOwnType(Mono.Collections.Generic.Collection<Instruction> code, int i)
    {
        int at = i - 1;
        var call = at >= 0 ? code[at].Operand as MethodReference : null;
        if (call != null && call.Name == "GetTypeInfo") call = --at >= 0 ? code[at].Operand as MethodReference : null;
        if (call == null || call.Name != "GetTypeFromHandle" || at < 1 || code[at - 1].OpCode.Code != Code.Ldtoken)
            return false;
        var token = code[at - 1].Operand as TypeReference;
        return token != null && Own(Element(token));
    }

    static bool MakesDelegate(Mono.Collections.Generic.Collection<Instruction> code, int i)
    {
        if (i + 1 >= code.Count || code[i + 1].OpCode.Code != Code.Newobj) return false;
        var ctor = code[i + 1].Operand as MethodReference;
        return ctor != null && ctor.Parameters.Count == 2 && ctor.Parameters[1].ParameterType.FullName == "System.IntPtr";
    }

    void CheckMember(MemberReference member, Code op)
    {
        var declaring = member.DeclaringType;
        if (declaring != null && Harmless.Contains(Element(declaring).FullName + "::" + member.Name)) return;
        var method = member as MethodReference;
        var field = member as FieldReference;
        var element = declaring == null ? null : Element(declaring);
        bool framework = element != null && !(element is GenericParameter) && !Own(element);
        string type = element == null ? "" : Norm(element.FullName), key = type + "::" + member.Name;
        if (framework && MemberRule(method, type, key)) return;     // denied, or allowed by the Java original
        bool typeOk = declaring == null || CheckType(declaring, true);
        if (field != null) CheckType(field.FieldType);
        if (method != null)
        {
            CheckType(method.ReturnType);
            foreach (var p in method.Parameters) CheckType(p.ParameterType);
            var generic = method as GenericInstanceMethod;
            if (generic != null) foreach (var a in generic.GenericArguments) CheckType(a);
        }
        if (framework && typeOk && !MemberAllowed(element, type, key)) Deny("unlisted", Display(key));
    }

    /// <summary>The deny rules on one framework member: true when one matched (the member is denied, or
    /// allowed by its capability), false when the allowlist decides.</summary>
    bool MemberRule(MethodReference method, string type, string key)
    {
        string cap;
        HashSet<string> only;
        if (HardMembers.TryGetValue(key, out cap)) { Deny(cap, Display(key)); return true; }
        List<string[]> specs;
        if (method != null && Overloads.TryGetValue(key, out specs))
        {
            var names = string.Join(",", method.Parameters.Select(p => Norm(p.ParameterType.FullName)));
            foreach (var s in specs)
                if (s[1] == "*" ? method.Parameters.Count > 0 : names == s[1]) { Deny(s[0], Display(key) + "(" + s[1] + ")"); return true; }
        }
        if (method != null && Members.TryGetValue(key, out cap))
        {
            if (key != "System.Type::GetType" || method.Parameters.Count > 0)    // obj.GetType() is Object's
            {
                Deny(cap, Display(key));
                return true;
            }
        }
        else if (method != null && Restricted.TryGetValue(type, out only))
        {
            if (!only.Contains(method.Name)) Deny("reflection", Display(key));
            return true;                // the members a restricted type keeps are allowed
        }
        else if (method != null && PathMembers.TryGetValue(key, out cap) && method.Parameters.Count > 0
                 && method.Parameters[0].ParameterType.FullName == "System.String")
        {
            Deny(cap, Display(key) + "(string path)");
            return true;
        }
        if (Guarded.TryGetValue(type, out cap) && !Allowed.Contains(key))
        {
            Deny(cap, Display(key));
            return true;
        }
        return false;
    }

    /// <summary>Names a denied type; true when the type is allowed.</summary>
    /// <summary>Names a denied type; true when it is allowed. `declaring`: the type of a member the code
    /// uses (a value type the port holds is allowed as data, never its members' owner).</summary>
    bool CheckType(TypeReference type, bool declaring = false)
    {
        if (type == null) return true;
        if (type is PointerType || type is FunctionPointerType)
        {
            Deny("unsafe", "pointer type " + type.FullName + " (unsafe code)");
            return false;
        }
        var spec = type as TypeSpecification;
        if (spec != null)
        {
            bool ok = true;
            var gi = type as GenericInstanceType;
            if (gi != null) foreach (var a in gi.GenericArguments) ok &= CheckType(a);
            return CheckType(spec.ElementType, declaring) && ok;
        }
        if (type is GenericParameter) return true;
        var outer = Outer(type);
        string ns = outer.Namespace ?? "", full = Norm(type.FullName);
        string cap;
        foreach (var rule in Hard)          // even a type of its own assembly (a forged NUnit.Framework.SuccessException)
            if (Under(full, ns, rule[1])) { Deny(rule[0], full); return false; }
        if (Own(type)) return true;
        if (Restricted.ContainsKey(full)) return true;             // its members are checked one by one
        if (!declaring && refs.Allows(refs.ValueTypes, full, excluded)) return true;     // held as data by the port
        if (Types.TryGetValue(full, out cap)) { Deny(cap, full); return false; }
        foreach (var rule in Namespaces)
            if (Under(full, ns, rule[1])) { Deny(rule[0], full); return false; }
        string outerFull = Norm(outer.FullName);
        if (Granted(full, ns) || CoreNamespaces.Contains(ns) || CoreTypes.Contains(full) || CoreTypes.Contains(outerFull)
            || CoreTypeRefs.Contains(full) || refs.Assemblies.Contains(ScopeName(type))
            || refs.Allows(refs.Types, full, excluded) || refs.Allows(refs.Closure, full, excluded))
            return true;
        Deny("unlisted", full);
        return false;
    }



    void Deny(string capability, string api)
    {
        if (allowed.Contains(capability)) return;
        string key = capability + "\t" + api;
        if (!denials.ContainsKey(key)) denials[key] = where;
    }

    static TypeReference Element(TypeReference t)
    {
        var spec = t as TypeSpecification;
        return spec != null ? Element(spec.ElementType) : t;
    }

    /// <summary>"System.Collections.Generic.ISet`1<System.String>" -> "ISet", "System.Int32[]&" -> "Int32[]".</summary>
    static string Simple(TypeReference t)
    {
        if (t is ByReferenceType) return Simple(((ByReferenceType)t).ElementType);
        if (t is ArrayType) return Simple(((ArrayType)t).ElementType) + "[]";
        if (t is GenericInstanceType) return Simple(((GenericInstanceType)t).ElementType);
        return Regex.Replace(t.Name, "`\\d+$", "");
    }

    static string Display(string key) { return key.Replace("::", ".").Replace("..ctor", " constructor"); }

    /// <summary>The definition in this module a method or field reference names, else null.</summary>
    static IMemberDefinition Local(MemberReference member, ModuleDefinition module)
    {
        var method = member as MethodReference;
        if (method != null)
        {
            var element = method.GetElementMethod();
            if (element is MethodDefinition) return (MethodDefinition)element;
        }
        var declaring = member.DeclaringType == null ? null : Element(member.DeclaringType) as TypeDefinition;
        if (declaring == null || declaring.Module != module) return null;
        if (method != null)
            return declaring.Methods.FirstOrDefault(m => m.Name == method.Name && m.Parameters.Count == method.Parameters.Count)
                   ?? (IMemberDefinition)declaring;
        return declaring;
    }

    static bool Generated(string name) { return name.StartsWith("<") || name.Contains("$"); }

    /// <summary>Whether a compiler-generated type is the candidate's: a method of it or of its nested types, other
    /// than the member's own (`members`: they differ from the baseline's placeholders and are inspected anyway), is
    /// new or changed against the baseline (`known`, its method keys). A generated class the port compiles
    /// unchanged (ProtoGen's messages carry [CompilerGenerated]; a member of its Builder the candidate) is the
    /// port's, never the candidate's own code; what the candidate reaches of it is inspected as any port member
    /// is. Without a baseline (a ground truth checked in the port's own build) only a type with a compiler's name
    /// is the member's (its closures and iterators): libphonenumber's port lost 185 of 306 ground truths to its
    /// ProtoGen messages' Equals.</summary>
    static bool Changed(TypeDefinition type, HashSet<string> known, HashSet<MethodDefinition> members)
    {
        if (known == null) return GeneratedName(type);
        return Nested(type).Any(t => t.Methods.Any(m => !members.Contains(m) && !known.Contains(Key(m))));
    }

    static bool GeneratedType(TypeDefinition type)
    {
        for (var t = type; t != null; t = t.DeclaringType)
            if (Generated(t.Name) || t.CustomAttributes.Any(a => a.AttributeType.Name == "CompilerGeneratedAttribute"))
                return true;
        return false;
    }

    static IEnumerable<TypeDefinition> Nested(TypeDefinition type)
    {
        yield return type;
        foreach (var n in type.NestedTypes)
            foreach (var t in Nested(n)) yield return t;
    }

    static IEnumerable<TypeDefinition> AllTypes(ModuleDefinition module)
    {
        return module.Types.SelectMany(Nested);
    }

    /// <summary>"Ns.Outer.Inner" without generic arity, as repotrans's index names types.</summary>
    static string PlainName(TypeDefinition t)
    {
        string name = Regex.Replace(t.Name, "`\\d+$", "");
        return t.DeclaringType != null ? PlainName(t.DeclaringType) + "." + name
               : (t.Namespace.Length > 0 ? t.Namespace + "." + name : name);
    }

    /// <summary>A method's identity and body with metadata tokens and compiler numbering left out:
    /// equal in two builds when its source did not change.</summary>
    static string Key(MethodDefinition m)
    {
        var text = new StringBuilder(Numbering.Replace(m.FullName, "#"));
        if (m.HasBody)
        {
            var code = m.Body.Instructions;
            foreach (var ins in code)
            {
                text.Append('\n').Append(ins.OpCode.Name).Append(' ');
                var target = ins.Operand as Instruction;
                var targets = ins.Operand as Instruction[];
                if (target != null) text.Append(code.IndexOf(target));
                else if (targets != null) text.Append(string.Join(",", targets.Select(x => code.IndexOf(x))));
                else if (ins.Operand is MemberReference) text.Append(Numbering.Replace(((MemberReference)ins.Operand).FullName, "#"));
                else if (ins.Operand is VariableDefinition) text.Append(((VariableDefinition)ins.Operand).Index);
                else if (ins.Operand is ParameterDefinition) text.Append(((ParameterDefinition)ins.Operand).Index);
                else if (ins.Operand != null) text.Append(ins.Operand);
            }
        }
        return text.ToString();
    }
}
