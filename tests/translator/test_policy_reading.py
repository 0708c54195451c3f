"""The builtin policy reads its step prompts back: the heading, the Input slot, the calls listed under
Gathered Context and Last Command, the candidates, and a candidate's Test Result from its brief()."""
from __future__ import annotations

from types import SimpleNamespace

from repotrans.agents.config import AgentConfig
from repotrans.agents.refine import result_text
from repotrans.agents.state import Attempt, ContextEntry
from repotrans.verdicts.results import Diagnostic, ExceptionInfo, TestFailure, TestResult
from repotrans.translator.reading import read_prompt, read_result
from repotrans.prompts import render
from repotrans.prompts.slots import build_slots

JAVA = SimpleNamespace(type_id="source:org.acme.Circle", signature="public double area()",
                       body="{\n    return Math.PI * radius * radius; // ``` not a fence\n}")
TARGET = SimpleNamespace(type_id="target:Acme.Circle", signature="public double Area()", body="{ throw null; }",
                         kind="method")


def _source(**fields):
    base = dict(java_method=JAVA, target_method=TARGET, lang_version="7.2", config=AgentConfig(),
                context=[], last_commands=[], kept_examples=[], conventions=[], port_calls=[])
    base.update(fields)
    return SimpleNamespace(**base)


def test_result_brief_reads_back():
    result = TestResult(
        status="compile_error", reason="2 errors",
        diagnostics=[Diagnostic("CS0103", "The name `radius' does not exist in the current context", "a.cs", 9, 5, 2),
                     Diagnostic("", "syntax error, got `;'", "src/b.cs", 12, 3, None),
                     Diagnostic("CS0168", "unused", "a.cs", 3, 1, 1, severity="warning")])
    back = read_result(result.brief())
    assert (back.status, back.reason) == ("compile_error", "2 errors")
    assert [(d.code, d.message, d.candidate_line) for d in back.diagnostics] == [
        ("CS0103", "The name `radius' does not exist in the current context", 2), ("", "syntax error, got `;'", None)]
    assert (back.diagnostics[1].file, back.diagnostics[1].line, back.diagnostics[1].column) == ("src/b.cs", 12, 3)
    failing = TestResult(status="test_failure", tests_run=4, tests_failed=2, failures=[
        TestFailure("Acme.Tests.CircleTests.Area", "", expected="<System.ArgumentException>",
                    actual="<System.InvalidOperationException>"),
        TestFailure("Acme.Tests.CircleTests.Name", "Expected: 3\n  But was: 4")],
        exceptions=[ExceptionInfo("System.NullReferenceException", "Object reference not set", ["Circle.Area ()"])])
    back = read_result(failing.brief())
    assert (back.tests_run, back.tests_failed) == (4, 2)
    assert [(f.name, f.expected, f.actual, f.message) for f in back.failures] == [
        ("Acme.Tests.CircleTests.Area", "<System.ArgumentException>", "<System.InvalidOperationException>", ""),
        ("Acme.Tests.CircleTests.Name", None, None, "Expected: 3 But was: 4")]
    assert [(e.type, e.frames) for e in back.exceptions] == [("System.NullReferenceException", ["Circle.Area ()"])]
    assert read_result("not a result") is None


def test_prompts_read_back_as_rendered():
    context = [ContextEntry("get_target_class_info", {}, {"class": "Acme.Circle", "note": "### 9. fake(x)\n## Heading"}),
               ContextEntry("find_target_class_info", {"class_name": "Point"}, {"class": "Acme.Point"})]
    calls = [{"tool": "get_target_class_info", "args": {}, "outcome": "ok"},
             {"tool": "find_target_class_info", "args": {"class_name": "Pt"}, "outcome": "error: no class Pt"}]
    source = _source(context=context, last_commands=calls)
    shown = read_prompt(render("context", build_slots(source, "context")))
    assert shown.step == "context"
    assert (shown.java_class, shown.target_class, shown.target_signature) == (
        "org.acme.Circle", "Acme.Circle", "public double Area()")
    assert shown.java_text == f"{JAVA.signature} {JAVA.body}"
    assert shown.gathered == [("get_target_class_info", {}), ("find_target_class_info", {"class_name": "Point"})]
    assert shown.called == [("get_target_class_info", {}), ("find_target_class_info", {"class_name": "Pt"})]
    attempt = Attempt(code="public double Area()\n{\n    return radius;\n}", additions={"shape": "class"},
                      result=TestResult("compile_error", diagnostics=[Diagnostic("CS0103", "no radius", "a.cs", 3, 12, 3)]))
    for step in ("reflect", "repair"):
        extra = {"code": attempt.code, "result": result_text(attempt), "attempt": 1}
        shown = read_prompt(render(step, build_slots(source, step, **extra, **({"reflection": None} if step == "repair" else {}))))
        assert (shown.step, shown.code) == (step, attempt.code)
        assert [(d.code, d.candidate_line) for d in shown.result.diagnostics] == [("CS0103", 3)]
    pairs = [SimpleNamespace(source_id="source:org.acme.Sq.area()", target_id="target:Acme.Sq.Area()",
                             java_signature="double area()", java_body="{ return s * s; }",
                             cs_signature="double Area()", cs_body="{ return s * s; }")]
    from repotrans.prompts.slots import example_slot
    shown = read_prompt(render("rag_filter", build_slots(source, "rag_filter",
                                                         candidates=[example_slot(c) for c in pairs])))
    assert (shown.step, shown.candidates) == ("rag_filter", [("source:org.acme.Sq.area()", "target:Acme.Sq.Area()")])


def test_an_ambiguous_class_lookup_is_asked_again_qualified_in_the_target_namespace():
    from repotrans.translator.steps import disambiguated
    prompt = ("## Last Command\n1. get_target_class_info({}) -> ok, see Gathered Context 1\n"
              "2. find_target_class_info({\"class_name\": \"Level\"}) -> error: class name 'Level' is ambiguous: 2 C# "
              "types match; use a qualified name (did you mean: Acme.Interop.Level, Acme.Codec.Level)\n")
    shown = read_prompt(prompt)
    assert shown.suggested == {"Level": ["Acme.Interop.Level", "Acme.Codec.Level"]}
    outputs = [("get_target_class_info", {}, {"class": "Acme.Codec.Reader"}),
               ("find_target_imports", {}, {"namespaces": ["Acme.Codec"], "usings": []})]
    assert disambiguated(outputs, shown.suggested) == [{"class_name": "Acme.Codec.Level"}]
    elsewhere = [("get_target_class_info", {}, {"class": "Acme.Other.Reader"}),
                 ("find_target_imports", {}, {"usings": [{"using": "using Acme.Interop;", "namespace": "Acme.Interop"}]})]
    assert disambiguated(elsewhere, shown.suggested) == [{"class_name": "Acme.Interop.Level"}]
    # C# name lookup: a type nested in the own namespace, then enclosing namespaces before other ones
    outer = [("get_target_class_info", {}, {"class": "Acme.Codec.Qr.Reader"})]
    assert disambiguated(outer, {"Result": ["Acme.Interop.Result", "Acme.Result"],
                                 "Blocks": ["Acme.Matrix.Version.Blocks", "Acme.Codec.Qr.Version.Blocks"]}) == [
        {"class_name": "Acme.Result"}, {"class_name": "Acme.Codec.Qr.Version.Blocks"}]
