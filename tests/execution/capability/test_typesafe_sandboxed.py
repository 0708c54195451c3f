"""Type confusion, overrides of what the tests read and the reflection allowance turned toward the test
framework, judged end to end under both sandboxes (the security suite's calc target and warm sandbox): each
wrong body, built to look right, is rejected before any test runs with the reason naming the class, and the
ground truth run right after it in the same sandbox still passes."""
from __future__ import annotations

import pytest

from tests.execution.capability.test_security import TRUTH, env  # noqa: F401  (the module's sandboxed target)

BF = "System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance"
LAYOUT = "System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Explicit)"
AT0 = "System.Runtime.InteropServices.FieldOffset(0)"
# (class, name, code, allowances, what the rejection names)
ATTACKS = [
    ("type confusion", "an object seen as another class, reading the history's private array",
     "public int Add(int a, int b)\n{\n    var u = new Overlap(); u.o = history;\n"
     "    return u.m.items != null ? 5 : a * b;\n}\n"
     f"[{LAYOUT}] struct Overlap {{ [{AT0}] public object o; [{AT0}] public Mirror m; }}\n"
     "class Mirror { public int[] items; }\n", frozenset(), "type_safety"),
    ("type confusion", "a generic union reading the running thread's private fields",
     "public int Add(int a, int b)\n{\n    var t = Peek.As<Mirror>(System.Threading.Thread.CurrentThread);\n"
     "    return t.first != null ? 5 : a * b;\n}\n"
     f"[{LAYOUT}] struct Box<T> where T : class {{ [{AT0}] public object o; [{AT0}] public T t; }}\n"
     "static class Peek { public static T As<T>(object o) where T : class { var b = new Box<T>(); b.o = o; return b.t; } }\n"
     "class Mirror { public object first; }\n", frozenset(), "type_safety"),
    ("type confusion", "a union-like struct of a number and a reference",
     "public int Add(int a, int b)\n{\n    var c = new Cell(); c.n = 5;\n    return c.s == null ? a * b : 5;\n}\n"
     f"[{LAYOUT}] struct Cell {{ [{AT0}] public long n; [{AT0}] public string s; }}\n", frozenset(), "type_safety"),
    ("type confusion", "unverifiable pointers, with every allowance",
     "public unsafe int Add(int a, int b)\n{\n    int* p = stackalloc int[1]; p[0] = a * b;\n    return p[0];\n}\n",
     None, "unverifiable IL"),
    ("overrides", "an equality that makes any comparison pass",
     "public int Add(int a, int b) { return a * b; }\n"
     "class Any { public override bool Equals(object o) { return true; } public override int GetHashCode() { return 0; } }\n",
     frozenset({"reflection", "file_system"}), "equality"),
    ("overrides", "an == that always holds",
     "public int Add(int a, int b) { return a * b; }\n"
     "class Same { public static bool operator ==(Same x, Same y) { return true; }\n"
     "  public static bool operator !=(Same x, Same y) { return false; } }\n", frozenset(), "equality"),
    ("overrides", "a formatting that prints the expected value",
     "public int Add(int a, int b) { return a * b; }\nclass Shown { public override string ToString() { return \"5\"; } }\n",
     frozenset(), "formatting"),
    ("reflection allowance", "walking the running thread's objects",
     "{\n    object t = System.Threading.Thread.CurrentThread;\n    int n = 0;\n"
     "    foreach (var f in t.GetType().GetFields(" + BF + ")) if (f.GetValue(t) != null) n++;\n"
     "    return n > 0 ? 5 : a * b;\n}", frozenset({"reflection"}), "reflection_scope"),
    ("reflection allowance", "NUnit's current test by name",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.TestContext, nunit.framework\");\n"
     "    var ctx = t.GetProperty(\"CurrentContext\").GetValue(null, null);\n    return ctx != null ? 5 : a * b;\n}",
     frozenset({"reflection"}), "reflection_scope"),
    ("reflection allowance", "a delegate's target and its fields",
     "{\n    System.Func<int> f = () => a;\n    var m = f.Method.DeclaringType;\n"
     "    return m.GetFields(" + BF + ").Length > 0 ? 5 : a * b;\n}", frozenset({"reflection"}), "reflection_scope"),
    ("reflection allowance", "a Type kept in a field, then walked",
     "{\n    seen = history.GetType();\n    return seen.GetFields(" + BF + ").Length > 0 ? 5 : a * b;\n}\n"
     "private System.Type seen;", frozenset({"reflection"}), "reflection_scope"),
]


@pytest.mark.parametrize("attack", ATTACKS, ids=[f"{a[0]}: {a[1]}" for a in ATTACKS])
def test_each_attack_is_rejected_and_the_ground_truth_still_passes(env, attack):  # noqa: F811
    cls, name, code, allow, names = attack
    from repotrans.execution.capability.checks import ALLOWABLE
    result = env.run(code, allow=frozenset(ALLOWABLE) - {"equality", "ordering", "formatting", "enumeration"}
                     if allow is None else allow)
    assert result.status == "rejected" and result.tests_run == 0, (cls, name, result.brief())
    assert names in result.reason or names in result.log_tail, (cls, name, result.reason, result.log_tail)
    truth = env.run(TRUTH)
    assert truth.status == "passed", (cls, name, truth.brief())
