"""The reflection allowance narrowed to the class itself (il_reflect.py, cecil_reflect.cs): with a Java
original that reflects, its translation may reflect on typeof(its own class) and the members found there,
and nothing else. Each way of turning the allowance toward the test framework's, the runner's or another
type's objects (an object's GetType(), a type by name, BaseType, Delegate.Method, a Type handed over by a
parameter or hidden behind a cast, Activator by name) is denied by both checkers with the same denials; the
class's own reflection and type comparisons stay open."""
from __future__ import annotations

import pytest

from repotrans.execution.capability import checks
from tests.execution.capability.test_typesafe import _both, built  # noqa: F401  (the fixture)
from tests.execution.capability.test_il_check import compile_calc  # noqa: F401

BF = "System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance"
OWN = [
    ("its own private field", "{\n    var f = typeof(Calculator).GetField(\"history\", " + BF + ");\n"
     "    var h = (System.Collections.Generic.List<int>) f.GetValue(this);\n    int sum = a + b;\n    h.Add(sum);\n    return sum;\n}"),
    ("its fields in a loop", "{\n    int n = 0;\n    foreach (var f in typeof(Calculator).GetFields(" + BF + "))\n"
     "        if (f.Name.Length > 0 && f.GetValue(this) != null) n++;\n    int sum = a + b + n * 0;\n"
     "    history.Add(sum);\n    return sum;\n}"),
    ("type comparisons and names", "{\n    object o = history;\n    int sum = a + b + (o.GetType() == GetType() ? 1 : 0)"
     " + o.GetType().Name.Length * 0;\n    history.Add(sum);\n    return sum;\n}"),
]
FOREIGN = [
    ("the running thread's fields", "{ object t = System.Threading.Thread.CurrentThread;\n"
     "  foreach (var f in t.GetType().GetFields(" + BF + ")) { var v = f.GetValue(t); }\n  return a * b; }"),
    ("a type by name", "{ var t = System.Type.GetType(\"NUnit.Framework.TestContext, nunit.framework\");\n"
     "  return t == null ? a * b : t.GetFields().Length; }"),
    ("its base type", "{ return typeof(Calculator).BaseType.GetMethods().Length + a * b; }"),
    ("a delegate's method", "{ System.Func<int> f = () => 1; return f.Method.DeclaringType.GetFields().Length + a * b; }"),
    ("a Type handed to a helper", "{ return Peek(history.GetType()) + a * b; }\n"
     "private static int Peek(System.Type t) { return t.GetFields(" + BF + ").Length; }"),
    ("a Type behind a cast", "{ object o = history.GetType(); var t = (System.Type) o; return t.GetFields().Length + a * b; }"),
    ("a Type kept in a field", "{ seen = history.GetType(); return seen.GetFields(" + BF + ").Length + a * b; }\n"
     "private System.Type seen;"),
    ("an exception's target site", "{ try { throw new System.Exception(); } catch (System.Exception e) "
     "{ return e.TargetSite.DeclaringType.GetFields().Length + a * b; } }"),
]


@pytest.fixture(scope="module")
def reflecting(built, tmp_path_factory):  # noqa: F811
    exe, base, dlls = built
    tmp = tmp_path_factory.mktemp("reflect")
    extra = {name: compile_calc(tmp, f"r{n}", code) for n, (name, code) in enumerate(OWN + FOREIGN)}
    return exe, base, {**dlls, **extra}


@pytest.mark.slow
@pytest.mark.parametrize("case", OWN, ids=[c[0] for c in OWN])
def test_the_class_reflects_on_itself(reflecting, case):
    for verdict in _both(reflecting, case[0], frozenset({"reflection"})):
        assert verdict.ok, (case[0], verdict.log())


@pytest.mark.slow
@pytest.mark.parametrize("case", FOREIGN, ids=[c[0] for c in FOREIGN])
def test_the_reflection_allowance_reaches_no_other_type(reflecting, case):
    for verdict in _both(reflecting, case[0], frozenset(checks.GRANTS)):
        assert "reflection_scope" in {d.capability for d in verdict.denials}, (case[0], verdict.log())
