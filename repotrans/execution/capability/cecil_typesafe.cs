// Type safety, the precondition every in-process rule of the allowlist assumes, checked as a positive model
// of its own (part of cecil_checker.cs, compiled with it; il_typesafe.py does the same for the Python checker):
//   - the candidate's code (the methods the checker inspects: its member, what it added or changed, the
//     compiler-generated code they reach) must be verifiable IL: mono's own verifier (pedump --verify code,
//     Debian's mono-utils) reads the candidate assembly, and an error or unverifiable instruction in one of
//     those methods is denied; the port's own unverifiable code elsewhere is not the candidate's;
//   - its metadata comes from a short allowed set: the types it declares have auto or sequential layout (no
//     StructLayout(Explicit), FieldOffset, packing or size, RVA data or marshalling on their fields), its
//     methods are IL (managed, no PInvokeImpl, InternalCall, unmanaged export, forwarded or security-checked
//     bodies; runtime-implemented only in a delegate), its types derive from no proxy base the runtime treats
//     specially, and its custom attributes are the port's own or on rules.tsv's `attribute` list;
//   - it declares no override of what the tests read of a returned value (equality, hashing, ordering,
//     formatting, enumeration) unless its Java original's class does the same (the `equality`, `ordering`,
//     `formatting` and `enumeration` allowances).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using Mono.Cecil;

partial class IlPolicy
{
    const string Verifier = "/usr/bin/pedump";
    const string Unread = "*";                  // the key of a verifier run that verified no code
    static readonly HashSet<string> Attributes = new HashSet<string>();      // rules.tsv's attribute entries
    static readonly HashSet<string> ProxyBases = new HashSet<string> { "System.MarshalByRefObject", "System.ContextBoundObject" };
    static readonly Dictionary<string, Dictionary<string, List<string>>> Verified = new Dictionary<string, Dictionary<string, List<string>>>();

    /// <summary>The override classes: what a declared method named so changes of a value the tests inspect
    /// (by name and parameter count; an explicit interface implementation ends in ".Name").</summary>
    static string Declares(MethodDefinition m)
    {
        string name = m.Name.Substring(m.Name.LastIndexOf('.') + 1);
        if (m.Name.StartsWith(".")) name = m.Name;
        int n = m.Parameters.Count;
        if ((name == "Equals" && n == 1 && !m.IsStatic) || (name == "GetHashCode" && n == 0 && !m.IsStatic)
            || ((name == "op_Equality" || name == "op_Inequality") && n == 2))
            return "equality";
        if ((name == "CompareTo" && n == 1) || (name == "Compare" && n == 2 && !m.IsStatic)
            || ((name == "op_LessThan" || name == "op_GreaterThan" || name == "op_LessThanOrEqual"
                 || name == "op_GreaterThanOrEqual") && n == 2))
            return "ordering";
        if (name == "ToString" && n == 0 && !m.IsStatic) return "formatting";
        if (name == "GetEnumerator" && n == 0 && !m.IsStatic) return "enumeration";
        return null;
    }

    /// <summary>The type-safety model over the candidate's methods (`seen`) and the types it declared (`added`).</summary>
    void CheckTypeSafety(string candidatePath, ICollection<MethodDefinition> seen, ICollection<TypeDefinition> added)
    {
        var methods = new List<MethodDefinition>(seen);
        foreach (var t in added.Where(t => !GeneratedName(t)))
        {
            where = t.FullName;
            if (t.IsExplicitLayout) Deny("type_safety", "explicit layout on " + t.FullName + " (StructLayout(LayoutKind.Explicit))");
            if (t.HasLayoutInfo && (t.PackingSize > 0 || t.ClassSize > 1))      // mcs gives an empty struct size 1
                Deny("type_safety", "packing or size on " + t.FullName + " (StructLayout Pack/Size)");
            if (t.BaseType != null && ProxyBases.Contains(t.BaseType.FullName))
                Deny("type_safety", t.FullName + " derives from " + t.BaseType.FullName + " (a proxy the runtime treats specially)");
            Attributed(t, "type " + t.FullName);
            foreach (var f in t.Fields)
            {
                where = t.FullName + "::" + f.Name;
                if (f.HasLayoutInfo) Deny("type_safety", "a field offset on " + f.Name + " (FieldOffset)");
                if ((f.Attributes & FieldAttributes.HasFieldRVA) != 0 || f.InitialValue.Length > 0) Deny("type_safety", "RVA data on field " + f.Name);
                if (f.HasMarshalInfo) Deny("type_safety", "marshalling on field " + f.Name + " (MarshalAs)");
                Attributed(f, "field " + f.Name);
            }
            foreach (var p in t.Properties) { where = t.FullName + "::" + p.Name; Attributed(p, "property " + p.Name); }
            foreach (var e in t.Events) { where = t.FullName + "::" + e.Name; Attributed(e, "event " + e.Name); }
            methods.AddRange(t.Methods.Where(m => !seen.Contains(m)));
        }
        foreach (var m in methods)
        {
            where = m.DeclaringType.FullName + "::" + m.Name;
            var impl = m.ImplAttributes;
            bool delegateType = m.DeclaringType.BaseType != null && m.DeclaringType.BaseType.FullName == "System.MulticastDelegate";
            int code = (int) impl & 3;          // IL 0, native 1, OPTIL 2, runtime 3
            if (m.IsPInvokeImpl || m.HasPInvokeInfo || m.IsInternalCall || m.IsUnmanaged || m.IsUnmanagedExport || m.IsForwardRef
                || code == 1 || code == 2 || (code == 3 && !delegateType) || m.HasSecurity
                || (m.Attributes & MethodAttributes.RequireSecObject) != 0)
                Deny("type_safety", "method " + m.Name + " is not managed IL (" + ((int) m.Attributes).ToString("x")
                                    + "/" + ((int) impl).ToString("x") + ": extern, InternalCall, unmanaged or runtime-implemented)");
            Attributed(m, "method " + where);
            foreach (var p in m.Parameters) Attributed(p, "parameter " + p.Name + " of " + m.Name);
            Attributed(m.MethodReturnType, "the return value of " + m.Name);
            string declares = GeneratedName(m.DeclaringType) ? null : Declares(m);
            if (declares != null)
                Deny(declares, m.DeclaringType.FullName + "::" + m.Name + " (" + declares
                               + " of a value the tests may inspect, which the Java original's class does not define)");
        }
        var errors = Verify(candidatePath);
        if (errors == null)
        {
            where = candidatePath;
            Deny("type_safety", "the IL verifier " + Verifier + " did not run (Debian package mono-utils)");
            return;
        }
        List<string> unread;
        if (errors.TryGetValue(Unread, out unread))
        {
            where = candidatePath;
            Deny("type_safety", "the IL verifier could not verify the assembly: " + unread[0]);
        }
        foreach (var m in seen)
        {
            List<string> found;
            if (!errors.TryGetValue(VerifierKey(m.DeclaringType.FullName, m.Name, m.Parameters.Count), out found)) continue;
            where = m.DeclaringType.FullName + "::" + m.Name;
            Deny("type_safety", "unverifiable IL: " + found[0] + (found[0].Contains(MergedToObject) ? MergeHint : ""));
        }
    }

    // what the verifier says of a ?: whose branches are different classes converted to an interface (mcs emits no
    // cast; the stack merge is object), and what to do instead (il_typesafe.py MERGE_HINT)
    const string MergedToObject = "'object (Complex)'";
    const string MergeHint = " (a ?: whose branches are different classes: cast each branch to the interface, or use if/else)";

    /// <summary>Whether a type or one it is nested in has a compiler's name (attributes aside: the candidate can write those).</summary>
    static bool GeneratedName(TypeDefinition type)
    {
        for (var t = type; t != null; t = t.DeclaringType) if (Generated(t.Name)) return true;
        return false;
    }

    void Attributed(ICustomAttributeProvider owner, string what)
    {
        if (!owner.HasCustomAttributes) return;
        foreach (var a in owner.CustomAttributes)
        {
            var type = a.AttributeType;
            if (Own(type) || Attributes.Contains(Norm(type.FullName))) continue;
            Deny("type_safety", "attribute " + Norm(type.FullName) + " on " + what);
        }
    }

    /// <summary>"Ns.Outer`1/Inner::M/2": a method as pedump names it ("In method: Ns.Outer`1/Inner::M(int,T)"), by arity.</summary>
    static string VerifierKey(string type, string name, int arity) { return type + "::" + name + "/" + arity; }

    /// <summary>mono's verifier over one assembly: its findings per method (VerifierKey), null when it could not run.</summary>
    static Dictionary<string, List<string>> Verify(string path)
    {
        Dictionary<string, List<string>> found;
        if (Verified.TryGetValue(path, out found)) return found;
        if (!System.IO.File.Exists(Verifier)) return null;
        var start = new ProcessStartInfo(Verifier, "--verify code \"" + path + "\"")
        { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        found = new Dictionary<string, List<string>>();
        using (var p = Process.Start(start))
        {
            p.ErrorDataReceived += (s, e) => { };
            p.BeginErrorReadLine();
            string current = null, line;
            while ((line = p.StandardOutput.ReadLine()) != null)
            {
                if (line.StartsWith("FAIL: ") && !found.ContainsKey(Unread)) found[Unread] = new List<string> { line.Trim() };
                if (line.StartsWith("In method: ")) current = MethodKey(line.Substring(11));
                else if (current != null && (line.StartsWith("Error: ") || line.StartsWith("Not Verifiable: ")))
                {
                    List<string> list;
                    if (!found.TryGetValue(current, out list)) found[current] = list = new List<string>();
                    list.Add(line.Trim());
                }
            }
            p.WaitForExit();
            // 0: nothing found, 2: unverifiable code, 3: errors; anything else (1: it could not read the
            // metadata, so verified no code; a crash) fails closed
            if (p.ExitCode != 0 && p.ExitCode != 2 && p.ExitCode != 3)
                found[Unread] = new List<string> { "exit " + p.ExitCode };
        }
        return Verified[path] = found;
    }

    /// <summary>"Ns.T`1/In::M(int,Dictionary`2<int, U>)" -> VerifierKey (top-level commas count parameters).</summary>
    static string MethodKey(string text)
    {
        int open = text.IndexOf('('), sep = text.LastIndexOf("::", open < 0 ? text.Length - 1 : open);
        if (open < 0 || sep < 0) return text;
        string args = text.Substring(open + 1, Math.Max(0, text.LastIndexOf(')') - open - 1)).Trim();
        int depth = 0, arity = args.Length == 0 ? 0 : 1;
        foreach (char c in args)
        {
            if (c == '<' || c == '[') depth++;
            else if (c == '>' || c == ']') depth--;
            else if (c == ',' && depth == 0) arity++;
        }
        return VerifierKey(text.Substring(0, sep), text.Substring(sep + 2, open - sep - 2), arity);
    }
}
