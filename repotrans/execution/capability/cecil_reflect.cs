// The reflection allowance, narrowed to the class itself (part of cecil_checker.cs, compiled with it; il_reflect.py
// does the same for the Python checker). A Java original that reflects on its own class lets its translation
// reflect on the C# counterpart of that class (the job's TYPE and the types nested in it), nothing else: a call
// whose receiver or arguments are reflection values (System.Type, System.Reflection.*'s classes, System.Activator) takes
// them only from typeof(the counterpart) and what the short list of lookups below returns from it (its fields,
// methods, properties, constructors, members, nested types). Every other source is foreign: an object's
// GetType(), a parameter, a field, a cast, the result of any other call (BaseType, Assembly, FieldType,
// Delegate.Method, Exception.TargetSite). So the candidate cannot reach the test framework's, the runner's or
// the test assembly's types and objects through the allowance. Names, type comparisons and property getters stay
// open on any reflection value (what they return is foreign in turn): only looking members up, reading or writing
// a field, invoking or creating acts, and those take the counterpart's values.
//
// Provenance is followed through the evaluation stack and the locals of each method (two passes, the locals'
// sources joined; a branch target merges the stacks that reach it; foreign wins every merge).
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;
using Mono.Cecil.Cil;

partial class IlPolicy
{
    string counterpart;         // the job's TYPE ("Ns.Outer.Inner"): the class the Java original reflects on
    // the lookups that keep a reflection value the counterpart's (on a receiver that is)
    static readonly HashSet<string> Lookups = new HashSet<string> {
        "GetField", "GetFields", "GetMethod", "GetMethods", "GetProperty", "GetProperties", "GetConstructor",
        "GetConstructors", "GetMember", "GetMembers", "GetNestedType", "GetNestedTypes", "GetGetMethod",
        "GetSetMethod", "get_GetMethod", "get_SetMethod", "GetTypeInfo", "GetTypeFromHandle" };
    // what reads only a name or compares types: open on any reflection value
    static readonly HashSet<string> Naming = new HashSet<string> {
        "get_Name", "get_FullName", "get_Namespace", "ToString", "Equals", "GetHashCode", "op_Equality",
        "op_Inequality", "IsAssignableFrom", "IsInstanceOfType", "IsSubclassOf" };

    static bool ReflectionValue(TypeReference t)
    {
        if (t == null) return false;
        t = Element(t);
        if (t.IsValueType) return false;                    // BindingFlags and the other enums are data
        string ns = Outer(t).Namespace ?? "";
        return t.FullName == "System.Type" || t.FullName == "System.Activator" || ns == "System.Reflection"
               || ns.StartsWith("System.Reflection.");
    }

    bool Counterpart(TypeReference t)
    {
        var def = Element(t) as TypeDefinition;
        if (def == null || def.Module != module) return false;
        string name = PlainName(def);
        return name == counterpart || name.StartsWith(counterpart + ".");
    }

    /// <summary>Denies each reflection call on a value not from typeof(the counterpart) (`reflection_scope`).</summary>
    void CheckReflectionScope(MethodDefinition method)
    {
        if (!method.HasBody) return;
        var locals = new Dictionary<int, bool>();               // index -> own (every store own)
        Walk(method, (ins, stack, last) => Step(method, ins, stack, locals, last));
    }

    /// <summary>The provenance walk both narrowings take over a method's code (its locals kept by the caller's
    /// step): two passes, the first settling the locals; a branch target merges the stacks that reach it, code
    /// after an unconditional jump starts empty. `step` is told which pass is the last.</summary>
    static void Walk(MethodDefinition method, Action<Instruction, List<bool>, bool> step)
    {
        var code = method.Body.Instructions;
        for (int pass = 0; pass < 2; pass++)
        {
            var at = new Dictionary<Instruction, List<bool>>();   // a branch target's merged stack
            var stack = new List<bool>();
            bool reachable = true;
            foreach (var ins in code)
            {
                List<bool> recorded;
                if (at.TryGetValue(ins, out recorded))
                    stack = reachable ? Merge(stack, recorded) : new List<bool>(recorded);
                else if (!reachable) stack = new List<bool>();
                reachable = true;
                step(ins, stack, pass == 1);
                var targets = ins.Operand as Instruction[] ?? (ins.Operand is Instruction ? new[] { (Instruction) ins.Operand } : null);
                if (targets != null && ins.OpCode.OperandType != OperandType.InlineNone)
                    foreach (var target in targets)
                        at[target] = at.ContainsKey(target) ? Merge(at[target], stack) : new List<bool>(stack);
                var flow = ins.OpCode.FlowControl;
                if (flow == FlowControl.Branch || flow == FlowControl.Return || flow == FlowControl.Throw
                    || ins.OpCode.Code == Code.Leave || ins.OpCode.Code == Code.Leave_S || ins.OpCode.Code == Code.Endfinally)
                    reachable = false;
            }
        }
    }

    static List<bool> Merge(List<bool> a, List<bool> b)
    {
        int n = Math.Min(a.Count, b.Count);
        var merged = new List<bool>();
        for (int i = 0; i < n; i++) merged.Add(a[a.Count - n + i] && b[b.Count - n + i]);
        return merged;
    }

    static bool Pop(List<bool> stack)
    {
        if (stack.Count == 0) return false;                 // a handler's exception, or what no path here pushed
        bool top = stack[stack.Count - 1];
        stack.RemoveAt(stack.Count - 1);
        return top;
    }

    void Step(MethodDefinition method, Instruction ins, List<bool> stack, Dictionary<int, bool> locals, bool judge)
    {
        var op = ins.OpCode;
        switch (op.Code)
        {
            case Code.Ldtoken:
                stack.Add(ins.Operand is TypeReference && Counterpart((TypeReference) ins.Operand));
                return;
            case Code.Dup:
            {
                bool top = Pop(stack);
                stack.Add(top);
                stack.Add(top);
                return;
            }
            case Code.Castclass: case Code.Isinst:
                stack.Add(Pop(stack));
                return;
            case Code.Ldelem_Ref: case Code.Ldelem_Any:
                Pop(stack);
                stack.Add(Pop(stack));
                return;
        }
        var variable = LocalIndex(method, ins);
        if (variable >= 0 && (op.Code.ToString().StartsWith("Ldloc") && !op.Code.ToString().StartsWith("Ldloca")))
        {
            bool own;
            stack.Add(locals.TryGetValue(variable, out own) && own);
            return;
        }
        if (variable >= 0 && op.Code.ToString().StartsWith("Stloc"))
        {
            bool value = Pop(stack), before;
            locals[variable] = value && (!locals.TryGetValue(variable, out before) || before);
            return;
        }
        var callee = ins.Operand as MethodReference;
        if (callee != null && (op.Code == Code.Call || op.Code == Code.Callvirt || op.Code == Code.Newobj))
        {
            var args = new List<bool>();
            for (int i = 0; i < callee.Parameters.Count; i++) args.Insert(0, Pop(stack));
            bool instance = callee.HasThis && op.Code != Code.Newobj;
            bool receiver = instance ? Pop(stack) : true;
            bool family = ReflectionValue(callee.DeclaringType);
            var valued = Enumerable.Range(0, args.Count).Where(i => ReflectionValue(callee.Parameters[i].ParameterType)).ToList();
            bool argsOwn = valued.All(i => args[i]);
            // an instance call: its receiver and reflection arguments the counterpart's; a static one (or a
            // constructor) of the family: typeof, or from reflection arguments all the counterpart's (not from a name)
            bool own = family ? (instance ? receiver && argsOwn
                                 : callee.Name == "GetTypeFromHandle" || (valued.Count > 0 && argsOwn)) : argsOwn;
            if (judge && !own && !Naming.Contains(callee.Name) && !(callee.Name.StartsWith("get_") && args.Count == 0))
            {
                where = method.DeclaringType.FullName + "::" + method.Name;
                Deny("reflection_scope", Display(Norm(Element(callee.DeclaringType).FullName) + "::" + callee.Name)
                                         + " on a reflection value not from typeof(" + counterpart + ")");
            }
            if (op.Code == Code.Newobj || callee.ReturnType.FullName != "System.Void")
                stack.Add(own && family && Lookups.Contains(callee.Name)
                          && !(callee.Name == "GetTypeFromHandle" && args.Count == 1 && !args[0]));
            return;
        }
        if (op.StackBehaviourPop == StackBehaviour.PopAll) { stack.Clear(); return; }    // leave
        int pops = Pops(op, ins), pushes = Pushes(op);
        for (int i = 0; i < pops; i++) Pop(stack);
        for (int i = 0; i < pushes; i++) stack.Add(false);
    }

    static int LocalIndex(MethodDefinition method, Instruction ins)
    {
        var v = ins.Operand as VariableDefinition;
        if (v != null) return v.Index;
        switch (ins.OpCode.Code)
        {
            case Code.Ldloc_0: case Code.Stloc_0: return 0;
            case Code.Ldloc_1: case Code.Stloc_1: return 1;
            case Code.Ldloc_2: case Code.Stloc_2: return 2;
            case Code.Ldloc_3: case Code.Stloc_3: return 3;
        }
        return -1;
    }

    static int Pops(OpCode op, Instruction ins)
    {
        switch (op.StackBehaviourPop)
        {
            case StackBehaviour.Pop0: return 0;
            case StackBehaviour.Pop1: case StackBehaviour.Popi: case StackBehaviour.Popref: return 1;
            case StackBehaviour.Pop1_pop1: case StackBehaviour.Popi_pop1: case StackBehaviour.Popi_popi:
            case StackBehaviour.Popi_popi8: case StackBehaviour.Popi_popr4: case StackBehaviour.Popi_popr8:
            case StackBehaviour.Popref_pop1: case StackBehaviour.Popref_popi: return 2;
            case StackBehaviour.Popi_popi_popi: case StackBehaviour.Popref_popi_popi: case StackBehaviour.Popref_popi_popi8:
            case StackBehaviour.Popref_popi_popr4: case StackBehaviour.Popref_popi_popr8: case StackBehaviour.Popref_popi_popref:
                return 3;
            default: return op.Code == Code.Ret ? 1 : 0;       // Varpop: calls are handled above; ret pops its value
        }
    }

    static int Pushes(OpCode op)
    {
        switch (op.StackBehaviourPush)
        {
            case StackBehaviour.Push0: return 0;
            case StackBehaviour.Push1_push1: return 2;
            default: return 1;
        }
    }
}
