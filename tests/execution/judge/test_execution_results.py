"""Results, and the parsers of real mcs and nunit-console output (samples in tests/fixtures/dotnet)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from repotrans.execution.workspace.apply import LineMap
from repotrans.verdicts.results import Diagnostic, ExceptionInfo, TestFailure, TestResult, tail
from repotrans.execution.toolchains import PatchedFile
from repotrans.execution.toolchains.mono_build import parse_mcs
from repotrans.execution.toolchains.nunit import exception_info, parse_nunit2
from repotrans.execution.workspace.scratch import Workspace

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet"


def test_nunit2_report_exact():
    report = parse_nunit2((FIX / "nunit2" / "TestResult.xml").read_text())
    assert (report.total, report.passed) == (7, 2)
    assert [(f.name, f.expected, f.actual) for f in report.failures] == [
        ("Acme.Tests.CalcTests.AddCases(2,2,5)", "5", "4"),
        ("Acme.Tests.CalcTests.AddFails", "4", "3"),
        ("Acme.Tests.CalcTests.StringsDiffer", '"circle"', '"square"'),
        ("Acme.Tests.CalcTests.Throws", None, None),
        ("Acme.Tests.CalcTests.Wrapped", None, None),
    ]
    assert report.failures[1].stack == ["Acme.Tests.CalcTests.AddFails () at T2.cs:6"]
    assert [(e.type, e.message) for e in report.exceptions] == [
        ("System.NullReferenceException", "Object reference not set to an instance of an object"),
        ("System.InvalidOperationException",
         "parse failed ---> System.FormatException: Input string was not in a correct format."),
    ]
    assert report.exceptions[0].frames == ["Acme.Tests.CalcTests.Throws () at T2.cs:8"]


def test_nunit2_frames_can_be_relocated():
    report = parse_nunit2((FIX / "nunit2" / "TestResult.xml").read_text(),
                          locate=lambda path, line: f"{path}#{line}")
    assert report.failures[1].stack == ["Acme.Tests.CalcTests.AddFails () at /work/run/T2.cs#6"]


def test_nunit2_message_with_a_control_character_is_still_read():
    """Real nunit-console output: a \\u0001 in an assertion message makes the XML malformed."""
    report = parse_nunit2((FIX / "nunit2" / "ControlCharacter.xml").read_text())
    assert (report.total, report.passed) == (2, 1)
    assert [(f.name, f.expected, f.actual) for f in report.failures] == [("CtlTests.Bad", '"a\\u0001b"', '"c"')]


def test_exception_info_without_type():
    assert exception_info("something odd", []) == ExceptionInfo(type="", message="something odd", frames=[])


def test_where_nunit_says_it_was_thrown_is_not_the_exceptions_type():
    """Every test of a fixture whose one-time set-up threw (an engine started once per fixture) comes back as
    'SetUp : System.X : ...': the reason counted them as '10 test(s) threw an exception' (no type)."""
    info = exception_info("SetUp : System.NotImplementedException : The method or operation is not implemented."
                          "\n  (TestFixtureSetUp failed in SchedulerTests)", [])
    assert (info.type, info.message) == ("System.NotImplementedException", "The method or operation is not "
                                         "implemented.\n  (TestFixtureSetUp failed in SchedulerTests)")
    assert exception_info("SetUp : odd", []).type == ""


def _ws_and_candidate(tmp_path: Path) -> tuple[Workspace, PatchedFile]:
    ws = Workspace(root=tmp_path, target=tmp_path / "t", key="k")
    line_map = LineMap({4: 2})
    cand = PatchedFile(path="src/bad2.cs", text="", line_map=line_map, surface_changed=False,
                     run_dir=tmp_path / "runs" / "r1")
    return ws, cand


def test_mcs_syntax_error_maps_into_the_candidate(tmp_path):
    ws, cand = _ws_and_candidate(tmp_path)
    text = (FIX / "mcs" / "syntax_error.txt").read_text().replace("src/bad2.cs", "runs/r1/patched/src/bad2.cs")
    assert parse_mcs(text, ws, cand) == [
        Diagnostic(code="CS1525", message="Unexpected symbol `;'", file="src/bad2.cs", line=4, column=36,
                   candidate_line=2, severity="error")]


def test_mcs_errors_outside_the_candidate(tmp_path):
    ws, cand = _ws_and_candidate(tmp_path)
    text = (FIX / "mcs" / "semantic_errors.txt").read_text().replace("src/bad2.cs", "src/lib/bad2.cs")
    assert [(d.code, d.file, d.line, d.column, d.candidate_line) for d in parse_mcs(text, ws, cand)] == [
        ("CS0029", "lib/bad2.cs", 5, 32, None), ("CS0103", "lib/bad2.cs", 6, 39, None)]
    missing = parse_mcs((FIX / "mcs" / "missing_reference.txt").read_text(), ws, None)
    assert missing == [Diagnostic(code="CS0006", message="Metadata file `missing.dll' could not be found",
                                  file="", line=0, column=0, candidate_line=None, severity="error")]


def test_result_json_round_trip_and_brief():
    result = TestResult(
        status="test_failure",
        diagnostics=[Diagnostic("CS0219", "unused", "a.cs", 3, 9, 1, "warning")],
        failures=[TestFailure("T.A", "Expected: 5 But was: 4", "5", "4", ["T.A () at T.cs:3"]),
                  TestFailure("T.B", "boom\nsecond line")],
        exceptions=[ExceptionInfo("System.Exception", "boom", ["X.Y () at Y.cs:1", "a", "b", "c"])],
        tests_run=3, tests_failed=2, timings={"build": 0.25}, log_tail="log", reason="", selected=["P:T"],
        judge="batched: 3 candidates in one compile")
    data = json.loads(json.dumps(result.to_json()))
    assert TestResult.from_json(data) == result
    assert result.brief() == (
        "test_failure (2/3 tests failed)\n"
        "- test T.A failed: expected 5, actual 4\n"
        "- test T.B failed: boom second line\n"
        "- System.Exception: boom\n"
        "    at X.Y () at Y.cs:1\n    at a\n    at b")


def test_brief_points_into_the_candidate():
    result = TestResult(status="compile_error", reason="1 error(s) compiling P", diagnostics=[
        Diagnostic("CS1525", "Unexpected symbol `;'", "src/A.cs", 14, 5, 3),
        Diagnostic("CS0103", "The name `x' does not exist", "tests/T.cs", 7, 2, None)])
    assert result.brief() == ("compile_error: 1 error(s) compiling P\n"
                              "- CS1525 at candidate line 3: Unexpected symbol `;'\n"
                              "- CS0103 at tests/T.cs:7:2: The name `x' does not exist")


def test_unknown_status_is_rejected():
    with pytest.raises(ValueError, match="unknown status"):
        TestResult(status="ok")


def test_tail_cuts_at_a_line_start():
    text = "".join(f"line {i}\n" for i in range(2000))
    cut = tail(text, 100)
    assert len(cut) <= 100 and cut.startswith("line ") and cut.endswith("line 1999\n")


def test_the_configured_api_key_is_redacted_from_every_text(monkeypatch):
    from repotrans.verdicts.results import ExceptionInfo, TestFailure, TestResult

    key = "sk-redact-0123456789"
    monkeypatch.setenv("REPOTRANS_API_KEY", key)
    result = TestResult("runtime_error", failures=[TestFailure("T.A", f"saw {key}", expected=key)],
                        exceptions=[ExceptionInfo("System.Exception", key, frames=[f"at {key}"])],
                        log_tail=f"... {key} ...", reason=key)
    clean = result.redacted()
    assert key not in str(clean.to_json()) and clean.reason == "[redacted]"
    assert clean.failures[0].message == "saw [redacted]"
    monkeypatch.delenv("REPOTRANS_API_KEY")
    assert result.redacted() is result


def _runner_lines(nonce: str, planned: list[tuple[str, str]], tests: list[tuple[str, str]], end: bool = True,
                  started: int | None = None) -> str:
    import base64

    b64 = lambda t: base64.b64encode(t.encode()).decode()        # noqa: E731
    out = [f"@@RT {nonce} PLAN {state} {b64(name)}" for state, name in planned]
    out.append(f"@@RT {nonce} START {len(planned) if started is None else started}")
    out += [f"@@RT {nonce} TEST {state} {b64(name)} {b64('msg')} " for state, name in tests]
    if end:
        out.append(f"@@RT {nonce} END {len(tests)}")
    return "\n".join(["test output", *out, ""])


@pytest.mark.parametrize("planned,tests,selected,expected", [
    ([("Runnable", "N.F.A")], [("Success", "N.F.A")], ["N.F.A"], ("", "")),
    ([("Runnable", "N.F.A(1)"), ("Runnable", "N.F.A(2)")], [("Success", "N.F.A(1)"), ("Failure", "N.F.A(2)")],
     ["N.F.A"], ("", "")),
    ([("Runnable", "N.F.A")], [("Ignored", "N.F.A")], ["N.F.A"], ("runtime_error", "did not run")),
    ([("Runnable", "N.F.A")], [("Success", "N.F.A"), ("Success", "N.F.A")], ["N.F"], ("runtime_error", "match")),
    ([("Runnable", "N.F.A")], [("Success", "N.G.B")], ["N.F"], ("runtime_error", "missing N.F.A")),
    ([("Runnable", "N.G.B")], [("Success", "N.G.B")], ["N.F"], ("runtime_error", "outside the selection")),
    ([("Ignored", "N.F.A")], [("Ignored", "N.F.A")], ["N.F"], ("no_tests", "no selected test can run")),
    ([], [], ["N.F"], ("no_tests", "matched no test")),
])
def test_the_runner_report_is_checked_against_plan_and_selection(planned, tests, selected, expected):
    from repotrans.execution.toolchains.nunit import check_runner, parse_runner

    report = parse_runner(_runner_lines("n0nce", planned, tests), "n0nce")
    status, reason = check_runner(report, selected)
    assert status == expected[0] and expected[1] in reason, reason


def test_only_lines_with_the_nonce_count():
    from repotrans.execution.toolchains.nunit import check_runner, parse_runner

    forged = _runner_lines("guess", [("Runnable", "N.F.A")], [("Success", "N.F.A")])
    report = parse_runner(forged + _runner_lines("real", [("Runnable", "N.F.A")], [("Failure", "N.F.A")]), "real")
    assert [t[0] for t in report.tests] == ["Failure"] and check_runner(report, None) == ("", "")
    assert parse_runner(forged, "real").ended is None


def test_trajectories_and_run_records_are_redacted(tmp_path, monkeypatch):
    from repotrans.agents.trajectory import Trajectory
    from repotrans.runs.store import RunStore, TaskRecord

    key = "sk-redact-trajectory-0123"
    monkeypatch.setenv("REPOTRANS_API_KEY", key)
    traj = Trajectory(tmp_path / "run")
    traj.record("model", text=f"401: invalid key {key}")
    traj.write_json("result.json", {"error": key})
    store = RunStore(tmp_path / "store")
    store.add(TaskRecord("c", "d", "t", "error", error=f"HTTP 401 {key}", result={"log": key}))
    store._db.close()
    for path in [tmp_path / "run" / "trajectory.jsonl", tmp_path / "run" / "result.json",
                 tmp_path / "store" / "results.sqlite"]:
        assert key.encode() not in path.read_bytes() and b"[redacted]" in path.read_bytes(), path
