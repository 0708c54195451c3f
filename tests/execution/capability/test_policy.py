"""The capability policy on the candidate's compiled IL: real mcs, the real Cecil checker, the calc
fixture's `Calculator.Add(int, int)` in the local sandbox. A rejected candidate never reaches a test run."""
from __future__ import annotations

import pytest

from repotrans.execution.capability.checks import (CHAINED_MARK, MemberRef, chained_argv, java_capabilities, parse_output,
                                        split_chained, trust_note)
from repotrans.execution.capability.il_path import path_allowance
from repotrans.index.model import Method, Param
from tests.execution.judge.test_execution_runner import ADD_TRUTH, env, run  # noqa: F401  (module fixture)

SUM = "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n"
# (candidate, API the reason must name): each reaches a denied capability a different way
DENIED = [
    ("{\n    var o = System.Activator.CreateInstance(typeof(System.Text.StringBuilder));\n" + SUM + "}",
     "uses System.Activator"),
    ("{\n    System.Func<int> f = () => System.Type.GetType(\"NUnit.Framework.SuccessException\" + a) == null"
     " ? a + b : 0;\n    history.Add(f());\n    return f();\n}", "uses System.Type.GetType"),
    ("public int Add(int a, int b)\n{\n    int s = 0;\n    foreach (var x in Lines()) s += x;\n" + SUM + "}\n"
     "private System.Collections.Generic.IEnumerable<int> Lines()\n"
     "{\n    yield return System.IO.File.ReadAllText(\"/etc/hostname\").Length * 0;\n}\n", "uses System.IO.File"),
    ("public int Add(int a, int b)\n{\n    Helper.Touch();\n" + SUM + "}\n"
     "private static class Helper { public static void Touch() { System.GC.Collect(); } }\n",
     "uses System.GC.Collect"),
    ("{\n    var o = System.Console.OpenStandardOutput();\n    o.WriteByte(10);\n" + SUM + "}",
     "uses System.Console.OpenStandardOutput"),
    ("{\n    System.Runtime.InteropServices.Marshal.WriteByte(System.IntPtr.Zero, 0);\n" + SUM + "}",
     "uses System.Runtime.InteropServices.Marshal"),
    ("{\n    unsafe { int x = a; int* p = &x; history.Add(*p + b); return *p + b; }\n}", "unsafe"),
    ("{\n    if (a == 2) System.Environment.Exit(0);\n" + SUM + "}", "uses System.Environment.Exit"),
    ("{\n    var h = System.Type.GetType(\"System.Object\").TypeHandle;\n" + SUM + "}", "uses System.Type.GetType"),
    ("{\n    var asm = typeof(Calculator).Assembly;\n    if (asm.GetTypes().Length == 0) return 0;\n" + SUM + "}",
     "uses System.Reflection.Assembly.GetTypes"),
]


@pytest.mark.slow
@pytest.mark.parametrize("code, api", DENIED, ids=[api.split()[-1] for _, api in DENIED])
def test_a_candidate_reaching_a_denied_capability_is_rejected_without_a_test_run(env, code, api):
    result = run(env, "Calculator.Add", code)
    assert result.status == "rejected", result.brief()
    assert result.reason.startswith(api) or api in result.reason, result.reason
    assert result.tests_run == 0 and "test" not in result.timings and "policy" in result.timings


@pytest.mark.slow
def test_clean_code_with_lambdas_iterators_and_linq_passes(env):
    code = ("public int Add(int a, int b)\n{\n    System.Func<int, int> twice = x => x + x;\n"
            "    int s = System.Linq.Enumerable.Sum(Range(b)) * 0 + twice(0);\n    int sum = a + b + s;\n"
            "    history.Add(sum);\n    return sum;\n}\n"
            "private System.Collections.Generic.IEnumerable<int> Range(int n)\n"
            "{\n    var res = typeof(Calculator).Assembly.GetManifestResourceStream(\"missing\");\n"
            "    for (int i = 0; i < n; i++) yield return i + GetType().Name.Length + (res == null ? 0 : 1);\n}\n")
    result = run(env, "Calculator.Add", code)
    assert result.status == "passed", result.brief()
    assert result.trust == ""


@pytest.mark.slow
def test_a_capability_the_java_original_uses_is_allowed_with_reduced_trust(env):
    code = ("{\n    if (System.IO.File.Exists(\"/nonexistent/x\")) return 0;\n" + SUM + "}")
    assert run(env, "Calculator.Add", code).status == "rejected"
    # file access reaches only the paths the Java original names (2f0dbb5): the allowance alone is not enough
    assert run(env, "Calculator.Add", code, allow=frozenset({"file_system"})).status == "rejected"
    result = run(env, "Calculator.Add", code, allow=frozenset({"file_system", path_allowance("/nonexistent/x")}))
    assert result.status == "passed", result.brief()
    assert result.trust == "trust: reduced (file_system allowed: the Java original uses it)"
    # a capability the Java original cannot grant stays denied
    raw = "{\n    System.Runtime.InteropServices.Marshal.ReadByte(System.IntPtr.Zero);\n" + SUM + "}"
    assert run(env, "Calculator.Add", raw, allow=frozenset({"file_system", "interop"})).status == "rejected"


def test_java_capabilities_come_from_the_java_code_only():
    assert java_capabilities("return a + b;") == frozenset()
    assert java_capabilities("try (FileReader r = new FileReader(path)) { return r.read(); }") == {"file_system"}
    assert java_capabilities("return Files.readAllLines(p).size();") == {"file_system"}
    assert java_capabilities("Class<?> c = Class.forName(name); return c.newInstance();") == {"reflection"}
    assert java_capabilities("if (bad) System.exit(1);") == {"process"}
    assert java_capabilities("public Analyzer(Version v, File stopwords) { this(v, load(stopwords)); }") == {
        "file_system"}
    assert java_capabilities("System.out.println(x);") == {"console"}
    # printStackTrace() is System.err's; to a writer of its own it prints nothing to the console
    assert java_capabilities("try { run(); } catch (IOException e) { e.printStackTrace(); }") == {"console"}
    assert java_capabilities("catch (Exception e) { e.printStackTrace(writer); }") == frozenset()
    assert java_capabilities(None) == frozenset()
    assert trust_note(frozenset()) == ""


def _method(kind, name, params=0, type_id="target:Ns.Outer<T>.Inner", modifiers=()):
    return Method(id="x", side="target", type_id=type_id, kind=kind, name=name,
                  params=[Param(f"p{i}", "int") for i in range(params)], return_type=None,
                  modifiers=list(modifiers), annotations=[], type_params=[], signature="", body=None,
                  path="A.cs", start_line=1, end_line=1, start_byte=0, end_byte=0)


def test_member_refs_name_what_the_compiler_emits():
    assert MemberRef.of(_method("method", "Add", 2)) == MemberRef("Ns.Outer.Inner", ("Add",), 2, ("Int32", "Int32"))
    assert MemberRef.of(_method("property", "Count")) == MemberRef("Ns.Outer.Inner", ("get_Count", "set_Count"), -1)
    assert MemberRef.of(_method("indexer", "this")).names == ("get_Item", "set_Item")
    assert MemberRef.of(_method("constructor", "Inner", 1)).names == (".ctor",)
    assert MemberRef.of(_method("constructor", "Inner", 0, modifiers=("static",))).names == (".cctor",)
    assert MemberRef.of(_method("method", "Map<U>", 1)).names == ("Map",)


def test_checker_output_is_parsed_per_job_and_a_missing_answer_is_no_pass():
    out = ("DENY reflection\tSystem.Activator\tNs.A::F\nDENY file_system\tSystem.IO.File\tNs.A::F\nDONE 3 12 140\n"
           "DONE 1 0\nERROR BadImageFormatException: bad\nDONE 0 1\n")
    first, second, third = parse_output(out)
    assert [d.api for d in first.denials] == ["System.Activator", "System.IO.File"]
    assert first.reason().startswith("uses System.Activator: reflection") and "1 more" in first.reason()
    assert first.cpu == 0.14 and second.cpu == 0.0
    assert second.ok and second.inspected == 1
    assert not third.ok and "could not read" in third.reason()


def test_a_chained_build_and_check_splits_at_the_mark_only_once_the_compile_succeeded():
    argv = chained_argv("base/.runner/p.exe", ["mcs", "-out:x.dll", "a b.cs"])
    assert argv[:2] == ["sh", "-c"] and argv[-6:] == ["mono", "--aot-path=base/.runner", "base/.runner/p.exe", "mcs",
                                                      "-out:x.dll", "a b.cs"]
    assert split_chained("a.cs(1,2): error CS1002\n") == ("a.cs(1,2): error CS1002\n", None)
    assert split_chained(f"Compilation succeeded\n{CHAINED_MARK}\nDONE 1 2 3\n") == ("Compilation succeeded\n",
                                                                                     "DONE 1 2 3\n")


def test_the_chained_command_keeps_the_compilers_failure_and_runs_the_checker_after_success(tmp_path):
    """The real shell line: a failing compile exits with its own status and never starts the checker;
    a succeeding one prints the mark, then the checker's answers (here a stand-in reading stdin)."""
    import subprocess

    failed = subprocess.run(chained_argv("never.exe", ["sh", "-c", "echo broken; exit 3"]), capture_output=True,
                            text=True, input="job\nEND\n")
    assert failed.returncode == 3 and split_chained(failed.stdout) == ("broken\n", None)
    (tmp_path / "mono").write_text("#!/bin/sh\nread job; echo \"DONE 1 5 7 $2 $job\"\n")
    (tmp_path / "mono").chmod(0o755)
    ok = subprocess.run(chained_argv("p.exe", ["true"]), capture_output=True, text=True, input="job\nEND\n",
                        env={"PATH": f"{tmp_path}:/usr/bin:/bin"})
    assert ok.returncode == 0 and split_chained(ok.stdout) == ("", "DONE 1 5 7 p.exe job\n")
