"""The pure-Python IL checker (il_check) against the Cecil one (cecil_checker.cs under mono): both read
rules.tsv, and on real assemblies compiled by mcs from the calc fixture with each attack
candidate of the security suite, each denial of the policy tests and clean code, they must name the
same (capability, API) denials in the same methods, and accept the same code."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.il_path import path_allowance
from repotrans.execution.capability.il_rules import load_rules
from repotrans.execution.capability.checks import ALLOWABLE, MemberRef
from tests.execution.capability.test_policy import DENIED
from tests.execution.capability.test_security import POLICY_ATTACKS, TRUTH
from tests.support.cecil import ADD, build_checker, cecil_verdicts, compile_calc_with

CLEAN = [
    ("ground truth", TRUTH),
    ("lambdas, iterators, LINQ, resources", "public int Add(int a, int b)\n{\n    System.Func<int, int> twice = x => x + x;\n"
     "    int s = System.Linq.Enumerable.Sum(Range(b)) * 0 + twice(0);\n    int sum = a + b + s;\n"
     "    history.Add(sum);\n    return sum;\n}\n"
     "private System.Collections.Generic.IEnumerable<int> Range(int n)\n"
     "{\n    var res = typeof(Calculator).Assembly.GetManifestResourceStream(\"missing\");\n"
     "    for (int i = 0; i < n; i++) yield return i + GetType().Name.Length + (res == null ? 0 : 1);\n}\n"),
    ("generic helper and delegates", "public int Add(int a, int b)\n{\n    var d = new System.Collections.Generic.Dictionary"
     "<string, System.Func<int, int>>();\n    d[\"x\"] = Twice<int>;\n    int sum = a + b + d[\"x\"](0);\n"
     "    history.Add(sum);\n    return sum;\n}\nprivate static int Twice<T>(int v) { return v * 2; }\n"),
]
# the assembly of a Type value the code does not name as typeof(an own type): a type the test passed in (a
# lambda's closure, a subclass) gives the test assembly and its embedded resources (issue 32)
TEST_CONTENT = [
    ("an argument's type's assembly", "{\n    var asm = ((object)history).GetType().Assembly;\n"
     "    return asm.GetManifestResourceNames().Length + a + b;\n}"),
    ("this type's runtime assembly through TypeInfo", "{\n    var asm = System.Reflection.IntrospectionExtensions"
     ".GetTypeInfo(GetType()).Assembly;\n    return asm.GetManifestResourceNames().Length + a + b;\n}"),
    ("Assembly.GetAssembly of a runtime type", "{\n    var asm = System.Reflection.Assembly.GetAssembly(GetType());\n"
     "    return asm.GetManifestResourceNames().Length + a + b;\n}"),
]
# a type the candidate declares outside its class, by closing the class and the namespace: in a namespace the
# port does not use (an impostor of NUnit's or the class library's) it is denied
DECLARATIONS = [
    ("an impostor of a framework exception", "public int Add(int a, int b) { return a + b; }\n}\n}\n"
     "namespace System.Impostors { public class NotImplementedException : System.Exception { } }\n"
     "namespace Acme.Calc\n{\n    public class CalculatorTail\n    {\n"
     "        private readonly System.Collections.Generic.List<int> history = new System.Collections.Generic.List<int>();"),
]
MEMBER = MemberRef("Acme.Calc.Calculator", ("Add",), 2, ("Int32", "Int32"))


def compile_calc(folder: Path, name: str, body: str | None) -> Path:
    """Acme.Calc compiled by mcs with Calculator.Add replaced by `body` (a block or whole members)."""
    member = body if body is None or not body.lstrip().startswith("{") else "public int Add(int a, int b)\n" + body
    return compile_calc_with(folder, name, member, ("/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll",))


@pytest.fixture(scope="module")
def assemblies(tmp_path_factory):
    if shutil.which("mcs") is None or not Path(checks.CECIL).is_file():
        pytest.fail("these tests need mono's mcs and Mono.Cecil in its GAC", pytrace=False)
    tmp = tmp_path_factory.mktemp("il-check")
    exe = build_checker(tmp)
    cases = [(name, code) for name, code in POLICY_ATTACKS] + [(api, code) for code, api in DENIED] + CLEAN + TEST_CONTENT + DECLARATIONS
    base = compile_calc(tmp, "base", None)
    dlls = {name: compile_calc(tmp, f"c{n}", code) for n, (name, code) in enumerate(cases)}
    return exe, base, dlls


def _cecil(exe: Path, jobs: list[tuple[Path, Path]]) -> list[checks.PolicyVerdict]:
    lines = [checks.job_line(str(dll), str(base) if base else None, MEMBER, frozenset()) for dll, base in jobs]
    return cecil_verdicts(exe, lines)


def _denials(v: checks.PolicyVerdict) -> list[tuple[str, str, str]]:
    return sorted((d.capability, d.api, d.where) for d in v.denials)


@pytest.mark.slow
def test_both_checkers_name_the_same_denials_on_every_attack_and_accept_the_same_code(assemblies):
    exe, base, dlls = assemblies
    names = list(dlls)
    cecil = _cecil(exe, [(dlls[n], base) for n in names])
    for name, expected in zip(names, cecil):
        ours = check_assembly(dlls[name], base, MEMBER, frozenset())
        assert not ours.error and not expected.error, (name, ours.error, expected.error)
        assert not expected.error and _denials(ours) == _denials(expected), name
        assert ours.ok == (name in {n for n, _ in CLEAN}), (name, ours.reason() if not ours.ok else "")
    # without the baseline (only the member and what it reaches) they agree too
    for name, expected in zip(names, _cecil(exe, [(dlls[n], None) for n in names])):
        ours = check_assembly(dlls[name], None, MEMBER, frozenset())
        assert not expected.error and _denials(ours) == _denials(expected), name


@pytest.mark.slow
def test_allowances_and_unreadable_assemblies(assemblies, tmp_path):
    _, base, dlls = assemblies
    reads = dlls["test sources read"]
    assert not check_assembly(reads, base, MEMBER, frozenset()).ok
    # the file allowance opens the paths the Java original names (il_path), not the test area
    assert {d.capability for d in check_assembly(reads, base, MEMBER, frozenset({"file_system"})).denials} == {"file_scope"}
    named = frozenset({"file_system", path_allowance("../../../src/tests/Acme.Calc.Tests/CalculatorTests.cs")})
    assert check_assembly(reads, base, MEMBER, named).ok
    junk = tmp_path / "junk.dll"
    junk.write_bytes(b"MZ not an assembly")
    verdict = check_assembly(junk, None, MEMBER, frozenset())
    assert not verdict.ok and verdict.error


def test_the_rules_file_is_read_whole():
    rules = load_rules()
    assert ("reflection", "System.Reflection") in rules.namespaces
    assert rules.types["System.IO.File"] == "file_system"
    assert rules.members["System.Environment::Exit"] == "process"
    assert "GetManifestResourceStream" in rules.restricted["System.Reflection.Assembly"]


@pytest.mark.slow
def test_the_assembly_of_a_type_not_named_by_typeof_is_denied_by_both(assemblies):
    exe, base, dlls = assemblies
    cecil = _cecil(exe, [(dlls[name], base) for name, _ in TEST_CONTENT])
    for (name, _), theirs in zip(TEST_CONTENT, cecil):
        ours = check_assembly(dlls[name], base, MEMBER, frozenset({"reflection"}))
        assert "test_content" in {d.capability for d in ours.denials}, (name, ours.reason())
        assert "test_content" in {d.capability for d in theirs.denials}, name


@pytest.mark.slow
def test_a_type_declared_outside_the_ports_namespaces_is_denied_by_both(assemblies):
    exe, base, dlls = assemblies
    cecil = _cecil(exe, [(dlls[name], base) for name, _ in DECLARATIONS])
    for (name, _), theirs in zip(DECLARATIONS, cecil):
        ours = check_assembly(dlls[name], base, MEMBER, frozenset(ALLOWABLE))
        assert "declaration" in {d.capability for d in ours.denials}, (name, ours.reason())
        assert "declaration" in {d.capability for d in theirs.denials}, name


def agreed(exe: Path, dll: Path, base: Path | None, member: MemberRef, refs: Path | None = None) -> checks.PolicyVerdict:
    """One job on both checkers (cecil_checker.cs and il_job); they must agree; our verdict."""
    [cecil] = cecil_verdicts(exe, [checks.job_line(str(dll), str(base) if base else None, member, frozenset(),
                                                   str(refs) if refs else None)])
    ours = check_assembly(dll, base, member, frozenset(), refs)
    assert not cecil.error and not ours.error and _denials(ours) == _denials(cecil), (ours.log(), cecil.log())
    return ours


# a class the port compiles from generated code (ProtoGen marks its messages [CompilerGenerated]) with an Equals
MESSAGE = ("[System.Runtime.CompilerServices.CompilerGenerated]\npublic sealed class Message\n{\n    public int Value;\n"
           "    public override bool Equals(object obj)\n    {\n        var other = obj as Message;\n"
           "        return other != null && other.Value == Value;\n    }\n"
           "    public override int GetHashCode()\n    {\n        return Value;\n    }\n}\n")
USES_MESSAGE = ("public int Add(int a, int b)\n{\n    var m = new Message();\n    m.Value = a + b;\n"
                "    history.Add(m.Value);\n    return m.Value;\n}\n")


@pytest.mark.slow
def test_a_generated_class_of_the_port_that_a_candidate_uses_is_the_ports_not_the_candidates(tmp_path):
    """libphonenumber's ProtoGen messages (NumberFormat, PhoneNumber) carry [CompilerGenerated] and define Equals:
    a candidate that only used one was rejected by both checkers for declaring equality, as if the class were its
    own lambda closure. Unchanged against the baseline, it is the port's; the same class with its Equals changed
    by the candidate is the candidate's, and still denied."""
    exe = build_checker(tmp_path)
    base = compile_calc_with(tmp_path, "base", ADD + MESSAGE)
    uses = compile_calc_with(tmp_path, "uses", USES_MESSAGE + MESSAGE)
    changes = compile_calc_with(tmp_path, "changes", USES_MESSAGE + MESSAGE.replace("other.Value == Value", "true"))
    for dll, denied in ((uses, set()), (changes, {"equality"})):
        ours = agreed(exe, dll, base, MEMBER)
        assert {d.capability for d in ours.denials} == denied, ours.reason()


@pytest.mark.slow
def test_a_generated_class_whose_only_change_is_the_candidates_own_member_is_still_the_ports(tmp_path):
    """The member is one of the generated class's own (libphonenumber's NumberFormat.Builder.MergeFrom): the class
    differs from the baseline by that member only, which is inspected as the member; it stays the port's, and its
    Equals is not the candidate's declaration. An Equals the candidate changes there is still denied."""
    exe = build_checker(tmp_path)
    member = MemberRef("Acme.Calc.Calculator.Message", ("Twice",), 1, ("Int32",))
    placeholder = "    public int Twice(int v) { throw new System.NotImplementedException(); }\n}\n"
    body = "    public int Twice(int v) { var m = new Message(); m.Value = v * 2; return m.Value; }\n}\n"
    base = compile_calc_with(tmp_path, "base", ADD + MESSAGE[:-2] + placeholder)
    mine = compile_calc_with(tmp_path, "mine", ADD + MESSAGE[:-2] + body)
    worse = compile_calc_with(tmp_path, "worse", ADD + MESSAGE[:-2].replace("other.Value == Value", "true") + body)
    for dll, denied in ((mine, set()), (worse, {"equality"})):
        ours = agreed(exe, dll, base, member)
        assert {d.capability for d in ours.denials} == denied, ours.reason()


@pytest.mark.slow
def test_a_ground_truth_checked_in_the_ports_own_build_owns_only_the_types_with_a_compilers_name(tmp_path):
    """Without a baseline (a ground truth in the port's build, dataset validation; a switched body in a shared
    build), a class the port compiles from generated code is the port's too: libphonenumber's port lost 185 of 306
    ground truths to its ProtoGen messages' Equals. The member's own closures (a compiler's name) are still read:
    a lambda reading a file is denied."""
    exe = build_checker(tmp_path)
    uses = compile_calc_with(tmp_path, "uses", USES_MESSAGE + MESSAGE)
    closure = compile_calc_with(tmp_path, "closure", "public int Add(int a, int b)\n{\n    System.Func<string> read = "
                                "() => System.IO.File.ReadAllText(\"x\");\n    return a + b + read().Length;\n}\n")
    for dll, denied in ((uses, set()), (closure, {"file_system"})):
        ours = agreed(exe, dll, None, MEMBER, dll)
        assert {d.capability for d in ours.denials} == denied, ours.reason()
