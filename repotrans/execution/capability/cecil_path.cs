// The file-system allowance, narrowed to the paths the Java original names (part of cecil_checker.cs, compiled with
// it; il_path.py does the same for the Python checker, where the model is described). A file-system call (a member of
// rules.tsv's file_system types, or a path member with a string path) whose path argument is not built from the
// member's parameters, the Java original's literals (the allowance's `path:<hex>` entries), the port's own fields and
// methods, null, and what System.String's and System.IO.Path's members, char formatting, reading an enumeration and
// the file system's own answers make of those (a parent or root only with the allowance's `file_parent`), is denied `file_scope`. Provenance is followed through the stack,
// locals and arguments of each method (cecil_reflect.cs's walk) and across the candidate's methods to a fixed point
// (fields stored a foreign value, parameters a call site passes one, methods returning one).
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;
using Mono.Cecil.Cil;

partial class IlPolicy
{
    static readonly HashSet<string> PathCombinators = new HashSet<string> { "System.String", "System.IO.Path", "System.Char" };
    static readonly HashSet<string> PathReaders = new HashSet<string> {
        "System.Collections.Generic.IEnumerable`1::GetEnumerator", "System.Collections.Generic.IEnumerator`1::get_Current",
        "System.Collections.IEnumerable::GetEnumerator", "System.Collections.IEnumerator::get_Current" };
    static readonly HashSet<string> ArrayReaders = new HashSet<string> {
        "System.Array::Sort", "System.Array::Reverse", "System.Array::IndexOf", "System.Array::BinarySearch",
        "System.Array::get_Length", "System.Array::Exists" };
    static readonly HashSet<string> PathConstants = new HashSet<string> {
        "System.String::Empty", "System.IO.Path::DirectorySeparatorChar", "System.IO.Path::AltDirectorySeparatorChar",
        "System.IO.Path::PathSeparator", "System.IO.Path::VolumeSeparatorChar" };
    static readonly HashSet<string> Climbs = new HashSet<string> {
        "System.IO.Path::GetDirectoryName", "System.IO.Path::GetPathRoot", "System.IO.Directory::GetParent",
        "System.IO.Directory::GetDirectoryRoot", "System.IO.DirectoryInfo::get_Parent", "System.IO.DirectoryInfo::get_Root",
        "System.IO.FileInfo::get_Directory", "System.IO.FileInfo::get_DirectoryName" };
    static readonly HashSet<string> TwoPaths = new HashSet<string> { "Copy", "Move", "Replace", "CopyTo", "MoveTo", "CreateSymbolicLink" };
    static readonly HashSet<string> PathObjects = new HashSet<string> {     // a path as an object: its receiver is a path argument
        "System.IO.FileSystemInfo", "System.IO.FileInfo", "System.IO.DirectoryInfo", "System.IO.DriveInfo" };
    static readonly HashSet<string> Text = new HashSet<string> { "System.String", "System.Object", "System.Char" };

    HashSet<string> pathTexts;
    HashSet<int> pathChars;
    HashSet<MethodDefinition> pathMethods;
    HashSet<string> taintedFields, taintedReturns;
    Dictionary<MethodDefinition, HashSet<int>> taintedParams;

    /// <summary>The file_scope model over the candidate's methods (`members`: the member's own).</summary>
    void CheckPathScope(ICollection<MethodDefinition> methods, HashSet<MethodDefinition> members)
    {
        pathTexts = new HashSet<string>(allowed.Where(a => a.StartsWith("path:")).Select(a => Unhex(a.Substring(5))));
        pathChars = new HashSet<int>(pathTexts.Where(t => t.Length == 1).Select(t => (int) t[0])) { '/', '\\' };
        pathMethods = new HashSet<MethodDefinition>(methods);
        taintedFields = new HashSet<string>();
        taintedReturns = new HashSet<string>();
        taintedParams = new Dictionary<MethodDefinition, HashSet<int>>();
        foreach (var m in methods)              // called by code that is not the candidate's: foreign
            if (!members.Contains(m) && (Generated(m.Name) || GeneratedType(m.DeclaringType) || m.IsVirtual))
                taintedParams[m] = new HashSet<int>(Enumerable.Range(0, m.Parameters.Count));
        var order = methods.OrderBy(m => m.MetadataToken.RID).ToList();
        for (int round = 0; round < 8; round++)
        {
            int before = TaintSize();
            foreach (var m in order) PathMethod(m, false);
            if (TaintSize() == before) break;
        }
        foreach (var m in order) PathMethod(m, true);
    }

    static string Unhex(string hex)
    {
        var bytes = new byte[hex.Length / 2];
        for (int i = 0; i < bytes.Length; i++) bytes[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);
        return System.Text.Encoding.UTF8.GetString(bytes);
    }

    int TaintSize() { return taintedFields.Count + taintedParams.Values.Sum(s => s.Count) + taintedReturns.Count; }

    void PathMethod(MethodDefinition method, bool judge)
    {
        if (!method.HasBody) return;
        int instance = method.HasThis ? 1 : 0;
        HashSet<int> foreign;
        if (!taintedParams.TryGetValue(method, out foreign)) foreign = new HashSet<int>();
        var args = new Dictionary<int, bool>();
        for (int k = 0; k < method.Parameters.Count + instance; k++) args[k] = k < instance || !foreign.Contains(k - instance);
        var locals = new Dictionary<int, bool>();
        Walk(method, (ins, stack, last) => PathStep(method, ins, stack, locals, args, judge && last));
    }

    void PathStep(MethodDefinition method, Instruction ins, List<bool> stack, Dictionary<int, bool> locals,
                  Dictionary<int, bool> args, bool judge)
    {
        var op = ins.OpCode.Code;
        bool own;
        switch (op)
        {
            case Code.Ldstr: stack.Add(Spelled((string) ins.Operand)); return;
            case Code.Ldc_I4_M1: case Code.Ldc_I4_0: case Code.Ldc_I4_1: case Code.Ldc_I4_2: case Code.Ldc_I4_3:
            case Code.Ldc_I4_4: case Code.Ldc_I4_5: case Code.Ldc_I4_6: case Code.Ldc_I4_7: case Code.Ldc_I4_8:
                stack.Add(pathChars.Contains(op == Code.Ldc_I4_M1 ? -1 : op - Code.Ldc_I4_0));
                return;
            case Code.Ldc_I4_S: stack.Add(pathChars.Contains((sbyte) ins.Operand)); return;
            case Code.Ldc_I4: stack.Add(pathChars.Contains((int) ins.Operand)); return;
            case Code.Ldnull: stack.Add(true); return;
            case Code.Ldarg_0: case Code.Ldarg_1: case Code.Ldarg_2: case Code.Ldarg_3:
                stack.Add(args.TryGetValue(op - Code.Ldarg_0, out own) && own);
                return;
            case Code.Ldarg_S: case Code.Ldarg: case Code.Ldarga_S: case Code.Ldarga:
                stack.Add(args.TryGetValue(((ParameterDefinition) ins.Operand).Sequence, out own) && own);
                return;
            case Code.Starg_S: case Code.Starg:
            {
                int slot = ((ParameterDefinition) ins.Operand).Sequence;
                bool value = Pop(stack);
                args[slot] = value && args.TryGetValue(slot, out own) && own;
                return;
            }
            case Code.Dup: { bool top = Pop(stack); stack.Add(top); stack.Add(top); return; }
            case Code.Castclass: case Code.Isinst: stack.Add(Pop(stack)); return;
            case Code.Box:
                stack.Add(Pop(stack) || Element((TypeReference) ins.Operand).FullName != "System.Char");
                return;
            case Code.Ldelem_Ref: case Code.Ldelem_Any: Pop(stack); stack.Add(Pop(stack)); return;
            case Code.Newarr:
            {
                Pop(stack);
                string element = Element((TypeReference) ins.Operand).FullName;
                stack.Add(element == "System.String" || element == "System.Object");
                return;
            }
            case Code.Stelem_I: case Code.Stelem_I1: case Code.Stelem_I2: case Code.Stelem_I4: case Code.Stelem_I8:
            case Code.Stelem_R4: case Code.Stelem_R8: case Code.Stelem_Ref: case Code.Stelem_Any:
            {
                bool value = Pop(stack);
                Pop(stack);
                bool array = Pop(stack);
                if (array && !value)
                {
                    if (stack.Count > 0) stack[stack.Count - 1] = false;    // the array an initializer keeps (newarr; dup)
                    foreach (var slot in locals.Keys.ToList()) locals[slot] = false;
                }
                return;
            }
            case Code.Ldfld: case Code.Ldflda: case Code.Ldsfld: case Code.Ldsflda:
                if (op == Code.Ldfld || op == Code.Ldflda) Pop(stack);
                stack.Add(FieldOwn((FieldReference) ins.Operand));
                return;
            case Code.Stfld: case Code.Stsfld:
            {
                bool value = Pop(stack);
                if (op == Code.Stfld) Pop(stack);
                string key = OwnField((FieldReference) ins.Operand);
                if (key != null && !value) taintedFields.Add(key);
                return;
            }
            case Code.Ret:
                if (method.ReturnType.FullName != "System.Void" && !Pop(stack)) taintedReturns.Add(method.Name);
                return;
            case Code.Ldftn: case Code.Ldvirtftn:
            {
                var target = (ins.Operand is GenericInstanceMethod ? ((GenericInstanceMethod) ins.Operand).ElementMethod
                              : ins.Operand) as MethodDefinition;
                if (target != null) taintedParams[target] = new HashSet<int>(Enumerable.Range(0, target.Parameters.Count));
                stack.Add(false);
                return;
            }
        }
        var variable = LocalIndex(method, ins);
        string name = op.ToString();
        if (variable >= 0 && name.StartsWith("Ldloc"))
        {
            stack.Add(locals.TryGetValue(variable, out own) && own);
            return;
        }
        if (variable >= 0 && name.StartsWith("Stloc"))
        {
            bool value = Pop(stack);
            locals[variable] = value && (!locals.TryGetValue(variable, out own) || own);
            return;
        }
        var callee = ins.Operand as MethodReference;
        if (callee != null && (op == Code.Call || op == Code.Callvirt || op == Code.Newobj))
        {
            PathCall(method, callee, op == Code.Newobj, stack, locals, judge);
            return;
        }
        if (ins.OpCode.StackBehaviourPop == StackBehaviour.PopAll) { stack.Clear(); return; }    // leave
        int pops = Pops(ins.OpCode, ins), pushes = Pushes(ins.OpCode);
        for (int i = 0; i < pops; i++) Pop(stack);
        for (int i = 0; i < pushes; i++) stack.Add(false);
    }

    void PathCall(MethodDefinition method, MethodReference callee, bool newobj, List<bool> stack, Dictionary<int, bool> locals,
                  bool judge)
    {
        var args = new List<bool>();
        for (int i = 0; i < callee.Parameters.Count; i++) args.Insert(0, Pop(stack));
        bool instance = callee.HasThis && !newobj;
        bool receiver = instance ? Pop(stack) : true;
        var element = Element(callee.DeclaringType);
        string typeName = Norm(element.FullName), key = typeName + "::" + callee.Name;
        var kinds = callee.Parameters.Select(p => PathKind(p.ParameterType)).ToList();
        bool fileType = FileType(element);
        bool sink = fileType || (PathMembers.ContainsKey(key) && kinds.Count > 0 && kinds[0] == "text");
        if (judge && sink)
        {
            var texts = Enumerable.Range(0, kinds.Count).Where(i => kinds[i] != "").ToList();
            var paths = TwoPaths.Contains(callee.Name) ? texts : texts.Take(1).ToList();
            if (!((receiver || !PathObjects.Contains(typeName)) && paths.All(i => args[i])))
            {
                where = method.DeclaringType.FullName + "::" + method.Name;
                Deny("file_scope", Display(key) + " on a path not built from the member's parameters and the Java original's literals");
            }
        }
        bool combinator = sink || PathCombinators.Contains(typeName) || PathReaders.Contains(key);
        if (!(combinator || ArrayReaders.Contains(key))
            && Enumerable.Range(0, args.Count).Any(i => args[i] && (callee.Parameters[i].ParameterType is ArrayType
                                                                   || callee.Parameters[i].ParameterType.FullName == "System.Array")))
        {
            foreach (var slot in locals.Keys.ToList()) locals[slot] = false;   // code that may write into an array of own paths
            for (int i = 0; i < stack.Count; i++) stack[i] = false;
        }
        var def = (callee is GenericInstanceMethod ? ((GenericInstanceMethod) callee).ElementMethod : callee) as MethodDefinition;
        if (def != null && pathMethods.Contains(def))
        {
            var foreign = Enumerable.Range(0, args.Count).Where(i => !args[i]).ToList();
            if (foreign.Count > 0)
            {
                HashSet<int> set;
                if (!taintedParams.TryGetValue(def, out set)) taintedParams[def] = set = new HashSet<int>();
                set.UnionWith(foreign);
            }
        }
        if (!newobj && callee.ReturnType.FullName == "System.Void") return;
        var inputs = Enumerable.Range(0, args.Count).Where(i => kinds[i] != "").Select(i => args[i]).ToList();
        if (instance) inputs.Add(receiver);
        if (combinator) stack.Add(inputs.Count > 0 && inputs.All(x => x) && (!Climbs.Contains(key) || allowed.Contains("file_parent")));
        else                                    // the port's own code answers for itself; the framework's is foreign
        {
            var owner = element as TypeDefinition;
            stack.Add(owner != null && owner.Module == module && !taintedReturns.Contains(callee.Name));
        }
    }

    bool Spelled(string text)
    {
        if (pathTexts.Contains(text)) return true;
        var ends = new bool[text.Length + 1];
        ends[0] = true;
        for (int i = 0; i < text.Length; i++)
            if (ends[i])
                foreach (var t in pathTexts)
                    if (t.Length > 0 && string.CompareOrdinal(text, i, t, 0, t.Length) == 0 && i + t.Length <= text.Length)
                        ends[i + t.Length] = true;
        return text.Length > 0 && ends[text.Length];
    }

    /// <summary>"path" for a file-system type, "text" for a string, object, char or an array of them, else "".</summary>
    string PathKind(TypeReference t)
    {
        while (t is ArrayType || t is ByReferenceType) t = ((TypeSpecification) t).ElementType;
        if (t is GenericInstanceType) t = ((GenericInstanceType) t).ElementType;
        if (t is GenericParameter || t is TypeSpecification) return "";
        if (Text.Contains(t.FullName)) return "text";
        return FileType(t) ? "path" : "";
    }

    bool FileType(TypeReference t)
    {
        if (t is GenericParameter) return false;
        string full = Norm(t.FullName), ns = Outer(t).Namespace ?? "";
        return Namespaces.Any(n => n[0] == "file_system" && Under(full, ns, n[1]))
               || Types.Any(kv => kv.Value == "file_system" && Under(full, ns, kv.Key));
    }

    string OwnField(FieldReference f)
    {
        var owner = Element(f.DeclaringType) as TypeDefinition;
        return owner != null && owner.Module == module ? owner.FullName + "::" + f.Name : null;
    }

    bool FieldOwn(FieldReference f)
    {
        string key = OwnField(f);
        if (key != null) return !taintedFields.Contains(key);
        return PathConstants.Contains(Norm(Element(f.DeclaringType).FullName) + "::" + f.Name);
    }
}
