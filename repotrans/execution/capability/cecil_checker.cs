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

class IlPolicy
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
                default: throw new InvalidOperationException("unknown rule kind " + f[0] + " in " + path);
            }
        }
    }
    static readonly Regex Numbering = new Regex(@"(?<=(m__|c__AnonStorey|c__Iterator|c__async|am\$cache|DisplayClass|<>__|\$)\w*?)\d+");

    HashSet<string> allowed;
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
        var module = ModuleDefinition.ReadModule(candidatePath, parameters);
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
        if (baselinePath != "-")
        {
            var known = new HashSet<string>(AllTypes(ModuleDefinition.ReadModule(baselinePath, parameters))
                                             .SelectMany(t => t.Methods).Select(Key));
            roots.AddRange(allTypes.SelectMany(t => t.Methods).Where(m => !known.Contains(Key(m))));
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
                else if (type != null && GeneratedType(type) && seenTypes.Add(type))
                    foreach (var t in Nested(type))
                    {
                        foreach (var f in t.Fields) { where = t.FullName + "::" + f.Name; CheckType(f.FieldType); }
                        foreach (var m in t.Methods) work.Push(m);
                    }
            }
        }
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
            if (ins.Operand is TypeReference) CheckType((TypeReference)ins.Operand);
            else if (member != null) CheckMember(member, op);
            if (member is MethodReference || member is FieldReference)
            {
                var def = Local(member, module);
                if (def != null) reached.Add(def);
            }
        }
        return reached;
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
        if (declaring != null) CheckType(declaring);
        var method = member as MethodReference;
        var field = member as FieldReference;
        if (field != null) CheckType(field.FieldType);
        if (method == null || declaring == null) return;
        CheckType(method.ReturnType);
        foreach (var p in method.Parameters) CheckType(p.ParameterType);
        var generic = method as GenericInstanceMethod;
        if (generic != null) foreach (var a in generic.GenericArguments) CheckType(a);
        string type = Element(declaring).FullName, key = type + "::" + method.Name;
        string cap;
        HashSet<string> only;
        if (Restricted.TryGetValue(type, out only))
        {
            if (!only.Contains(method.Name)) Deny("reflection", Display(key));
        }
        else if (Members.TryGetValue(key, out cap))
        {
            if (key != "System.Type::GetType" || method.Parameters.Count > 0)    // obj.GetType() is Object's
                Deny(cap, Display(key));
        }
        else if (PathMembers.TryGetValue(key, out cap) && method.Parameters.Count > 0
                 && method.Parameters[0].ParameterType.FullName == "System.String")
            Deny(cap, Display(key) + "(string path)");
        else if (Guarded.TryGetValue(type, out cap) && !Allowed.Contains(key))
            Deny(cap, Display(key));
    }

    void CheckType(TypeReference type)
    {
        if (type == null) return;
        if (type is PointerType || type is FunctionPointerType)
        {
            Deny("unsafe", "pointer type " + type.FullName + " (unsafe code)");
            return;
        }
        var spec = type as TypeSpecification;
        if (spec != null)
        {
            var gi = type as GenericInstanceType;
            if (gi != null) foreach (var a in gi.GenericArguments) CheckType(a);
            CheckType(spec.ElementType);
            return;
        }
        if (type is GenericParameter) return;
        var outer = type;
        while (outer.DeclaringType != null) outer = outer.DeclaringType;
        string ns = outer.Namespace ?? "", full = type.FullName.Replace('/', '.');
        string cap;
        if (Restricted.ContainsKey(full)) return;             // its members are checked one by one
        if (Types.TryGetValue(full, out cap)) { Deny(cap, full); return; }
        foreach (var rule in Namespaces)
            if (ns == rule[1] || ns.StartsWith(rule[1] + ".") || full.StartsWith(rule[1] + "."))
            {
                Deny(rule[0], full);
                return;
            }
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
