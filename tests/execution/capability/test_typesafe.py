"""Type safety as a precondition (il_typesafe.py, cecil_typesafe.cs): on real assemblies compiled by mcs from
the calc fixture, each form of type confusion, unusual metadata and unmanaged code is denied by both
checkers with the same denials; mono's verifier judges only the candidate's methods (the port's own unsafe
code is not the candidate's); overrides of what the tests read of a value are denied unless the Java
original's class defines the same; compiler-generated overrides (iterators, anonymous types) are not the
candidate's."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.il_typesafe import method_key, parse_verifier, verifier_key
from tests.execution.capability.test_il_check import MEMBER, compile_calc
from tests.execution.capability.test_security import TRUTH
from tests.support.cecil import both_checkers, build_checker

LAYOUT = "System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind."
OFFSET = "System.Runtime.InteropServices.FieldOffset(0)"
# a class whose first field the confusion reads: the List<int> history's private array, as a Mirror
MIRROR = "class Mirror { public int[] items; }\n"
# (name, candidate, a phrase every denial list names): each a way to make the runtime treat one object as another,
# or to leave managed, verifiable code
UNSAFE = [
    ("explicit union of an object and another class (type confusion)", "public int Add(int a, int b)\n{\n"
     "    var u = new Overlap(); u.o = history; int[] items = u.m.items;\n    return a + b + items.Length * 0;\n}\n"
     f"[{LAYOUT}Explicit)] struct Overlap {{ [{OFFSET}] public object o; [{OFFSET}] public Mirror m; }}\n" + MIRROR,
     "explicit layout"),
    ("union-like struct of a reference and an integer", "public int Add(int a, int b)\n{\n"
     "    var u = new Cell(); u.n = a; return a + b;\n}\n"
     f"[{LAYOUT}Explicit)] struct Cell {{ [{OFFSET}] public long n; [System.Runtime.InteropServices.FieldOffset(4)] "
     "public string s; }\n", "a field offset"),
    ("a top-level union read through a generic helper", "public int Add(int a, int b) { return Peek.Cast<Mirror>(history).items.Length * 0 + a + b; }\n"
     "}\n" f"[{LAYOUT}Explicit)] struct Box<T> where T : class {{ [{OFFSET}] public object o; [{OFFSET}] public T t; }}\n"
     "static class Peek { public static T Cast<T>(object o) where T : class { var b = new Box<T>(); b.o = o; return b.t; } }\n"
     + MIRROR + "class CalculatorTail {\n    private readonly System.Collections.Generic.List<int> history = "
     "new System.Collections.Generic.List<int>();", "explicit layout"),
    ("packed sequential layout", "public int Add(int a, int b) { var p = new Packed(); p.x = a; return p.x + b; }\n"
     f"[{LAYOUT}Sequential, Pack = 1)] struct Packed {{ public byte pad; public int x; }}\n", "packing"),
    ("an extern runtime call", "public int Add(int a, int b) { return Sum(a, b); }\n"
     "[System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.InternalCall)]\n"
     "static extern int Sum(int a, int b);\n", "not managed IL"),
    ("stackalloc and pointers", "public unsafe int Add(int a, int b)\n{\n    int* p = stackalloc int[2]; p[0] = a; p[1] = b;\n"
     "    return p[0] + p[1];\n}\n", "unverifiable IL"),
    ("an attribute outside the short list", "[System.Security.SecuritySafeCritical]\npublic int Add(int a, int b) { return a + b; }\n",
     "attribute System.Security.SecuritySafeCriticalAttribute"),
    ("a fixed buffer", "public unsafe int Add(int a, int b) { var f = new Fixed(); f.v[0] = a; return f.v[0] + b; }\n"
     "unsafe struct Fixed { public fixed int v[2]; }\n", "attribute System.Runtime.CompilerServices.FixedBufferAttribute"),
    # not an attack but code mcs leaves unverifiable (no cast, the branches merge to object): denied with what to do
    ("a ?: of two classes converted to an interface", "public int Add(int a, int b)\n{\n    System.IComparable c = a > b "
     "? (System.IComparable)new System.Version(1, 0) : \"x\";\n    return a + b + (c == null ? 1 : 0);\n}\n",
     "cast each branch to the interface"),
]
# a value the tests compare, given an equality, ordering or formatting of the candidate's own (Assert.AreEqual,
# CollectionAssert, string comparisons): each denied unless the Java class defines the same
OVERRIDES = [
    ("equality that makes any comparison pass", "public int Add(int a, int b) { return a * b; }\n"
     "class Any { public override bool Equals(object o) { return true; } public override int GetHashCode() { return 0; } }\n",
     "equality"),
    ("an == operator that always holds", "public int Add(int a, int b) { return a * b; }\n"
     "class Same { public static bool operator ==(Same x, Same y) { return true; } "
     "public static bool operator !=(Same x, Same y) { return false; } }\n", "equality"),
    ("IEquatable on a helper struct", "public int Add(int a, int b) { return a * b; }\n"
     "struct Eq : System.IEquatable<Eq> { public bool Equals(Eq o) { return true; } }\n", "equality"),
    ("an ordering that says everything is equal", "public int Add(int a, int b) { return a * b; }\n"
     "class Flat : System.IComparable { public int CompareTo(object o) { return 0; } }\n", "ordering"),
    ("a formatting that prints the expected text", "public int Add(int a, int b) { return a * b; }\n"
     "class Shown { public override string ToString() { return \"5\"; } }\n", "formatting"),
    ("an enumeration of chosen values", "public int Add(int a, int b) { return a * b; }\n"
     "class Seq : System.Collections.IEnumerable { public System.Collections.IEnumerator GetEnumerator() "
     "{ return new int[] { 5 }.GetEnumerator(); } }\n", "enumeration"),
]
GENERATED = ("iterators, anonymous types and lambdas", "public int Add(int a, int b)\n{\n    var pair = new { A = a, B = b };\n"
             "    int s = 0; foreach (int x in Twice(pair.A)) s += x;\n    int sum = pair.A + pair.B + s * 0;\n"
             "    history.Add(sum);\n    return sum;\n}\n"
             "private System.Collections.Generic.IEnumerable<int> Twice(int n) { yield return n; yield return n; }\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("mcs") is None or not Path(checks.CECIL).is_file():
        pytest.fail("these tests need mono's mcs and Mono.Cecil in its GAC", pytrace=False)
    tmp = tmp_path_factory.mktemp("typesafe")
    exe = build_checker(tmp)
    cases = UNSAFE + OVERRIDES + [(GENERATED[0], GENERATED[1], ""), ("ground truth", TRUTH, "")]
    base = compile_calc(tmp, "base", None)
    return exe, base, {name: compile_calc(tmp, f"c{n}", code) for n, (name, code, _) in enumerate(cases)}


def _both(built, name: str, allowed: frozenset[str] = frozenset()) -> list[checks.PolicyVerdict]:
    return both_checkers(built, MEMBER, name, allowed)


@pytest.mark.slow
@pytest.mark.parametrize("case", UNSAFE, ids=[c[0] for c in UNSAFE])
def test_unsafe_code_and_metadata_are_denied_by_both_even_with_every_allowance(built, case):
    name, _, phrase = case
    for verdict in _both(built, name, frozenset(checks.ALLOWABLE)):
        assert not verdict.ok and any(d.capability == "type_safety" and phrase in d.api for d in verdict.denials), (
            name, verdict.log())


@pytest.mark.slow
@pytest.mark.parametrize("case", OVERRIDES, ids=[c[0] for c in OVERRIDES])
def test_an_override_of_what_the_tests_read_is_denied_unless_the_java_class_defines_it(built, case):
    name, _, kind = case
    for verdict in _both(built, name, frozenset(checks.GRANTS)):
        assert {d.capability for d in verdict.denials} == {kind}, (name, verdict.log())
    for verdict in _both(built, name, frozenset({kind})):
        assert verdict.ok, (name, verdict.log())


@pytest.mark.slow
def test_the_compilers_own_code_and_the_ground_truth_are_accepted(built):
    for name in (GENERATED[0], "ground truth"):
        for verdict in _both(built, name):
            assert verdict.ok, (name, verdict.log())


@pytest.mark.slow
def test_the_verifier_judges_only_the_candidates_methods(tmp_path):
    """The port's own unverifiable code (a stackalloc in another member) is not the candidate's: the ground
    truth is accepted with it in the assembly, and the finding is there (pedump found it)."""
    src = tmp_path / "Port.cs"
    src.write_text("namespace P {\n public class C {\n  public int Add(int a, int b) { return a + b; }\n"
                   "  public unsafe int Raw() { int* p = stackalloc int[1]; p[0] = 1; return p[0]; }\n }\n}\n")
    dll = tmp_path / "Port.dll"
    subprocess.run(["mcs", "-target:library", "-unsafe", f"-out:{dll}", str(src)], check=True, capture_output=True)
    from repotrans.execution.capability.il_typesafe import verify
    found = verify(dll)
    assert found is not None and verifier_key("P.C", "Raw", 0) in found, found
    member = checks.MemberRef("P.C", ("Add",), 2, ("Int32", "Int32"))
    assert check_assembly(dll, None, member, frozenset()).ok
    raw = checks.MemberRef("P.C", ("Raw",), 0, ())
    assert not check_assembly(dll, None, raw, frozenset({"unsafe"})).ok


def test_the_verifiers_method_names_map_to_keys_by_arity():
    assert method_key("A.B.Outer`1/Inner::M(int[],List`1<string>,int&,T)") == "A.B.Outer`1/Inner::M/4"
    assert method_key("A.B.Outer`1::G(U,T[],Dictionary`2<int, U>)") == "A.B.Outer`1::G/3"
    assert method_key("Lib::Stack()") == "Lib::Stack/0"
    out = ("Could not initialize class(0x02000004) .U due to U\nIn method: Prog::Read(object)\n"
           "Error: Could not load type .U at 0x0000\nIn method: Prog::Ok()\nError count: 1\n")
    assert parse_verifier(out) == {"Prog::Read/1": ["Error: Could not load type .U at 0x0000"]}


def test_a_verifier_run_that_verified_no_code_fails_closed(tmp_path):
    """pedump stops at metadata it cannot read (a copy of mono's own corlib: exit 1, no method verified): the
    run is UNREAD, which both checkers deny, never an assembly without findings."""
    from repotrans.execution.capability.il_typesafe import UNREAD, verify
    assert parse_verifier("FAIL: Invalid CustomAttribute content row 17\nError count: 1\n") == {
        UNREAD: ["FAIL: Invalid CustomAttribute content row 17"]}
    corlib = next(Path(p) for p in ("/usr/lib/mono/4.5/mscorlib.dll", "/usr/lib/mono/4.5-api/mscorlib.dll")
                  if Path(p).is_file())
    copy = tmp_path / "corlib.dll"
    shutil.copyfile(corlib, copy)
    found = verify(copy)
    assert found is not None and UNREAD in found, found
