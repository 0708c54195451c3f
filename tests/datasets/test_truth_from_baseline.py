"""A ground truth's covering tests are read from the untouched baseline (judge.baseline_outcomes): in place, it
is the untouched port. Each task's verdict, selection and count of tests judged are the ones its own run gives;
where the record cannot answer as a run would, the tests run."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.datasets.build import validate_task
from repotrans.datasets.masking import candidate_tasks
from repotrans.datasets.validation import rejected_truths
from repotrans.execution.judge.baseline import AssemblyBaseline, BaselineCache, PortBaseline, port_baseline
from repotrans.execution.judge.baseline_outcomes import untouched_outcome
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from tests.support.mono_repos import needs_mono

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def _baseline(states: dict[str, str], failures: dict[str, str] | None = None, status: str = "test_failure",
              suites: dict[str, list[str]] | None = None, reason: str = ""):
    record = AssemblyBaseline("T", "k", status=status, states=states, failures=failures or {},
                              seconds={name: 0.1 for name in states}, suites=suites or {}, reason=reason)
    return PortBaseline({"T": record})


def test_a_selection_is_read_where_every_covered_test_is_known():
    base = _baseline({"Ns.F.A": "Success", "Ns.F.B(1)": "Success", "Ns.F.B(2)": "Failure", "Ns.G.C": "Success"},
                     {"T:Ns.F.B(2)": "an assertion (Expected: 2)"})
    read = untouched_outcome(base, ["T:Ns.F", "T:Ns.F.A"], "2 covering test(s)")
    assert (read.status, read.tests_run, read.selection) == ("passed", 2, "2 covering test(s)")
    assert read.left_out == {"T:Ns.F.B(2)": "fails on the untouched port: an assertion (Expected: 2)"}
    only_failing = untouched_outcome(base, ["T:Ns.F.B(2)"], "")
    assert only_failing.status == "no_tests" and only_failing.tests_run == 0 and only_failing.left_out


def test_a_case_the_runner_names_otherwise_is_found_under_its_methods_suite():
    """[TestCase("ab", TestName = "Start with B")] on Ns.F.Encode: the runner reports the case by its own name;
    the record keeps its suites, so a selection naming the method reads it."""
    base = _baseline({"Start with B": "Success", "Ns.F.A": "Success"},
                     suites={"Start with B": ["Ns.F", "Ns.F.Encode"], "Ns.F.A": ["Ns", "Ns.F"]})
    read = untouched_outcome(base, ["T:Ns.F.Encode"], "")
    assert (read.status, read.tests_run) == ("passed", 1)
    assert untouched_outcome(base, ["T:Ns.F"], "").tests_run == 2


def test_a_selected_name_covers_the_tests_under_it_at_a_name_boundary():
    base = _baseline({"Ns.F.A": "Success", "Ns.FG.B": "Success", 'Ns.F.C("x.y")': "Success", "Ns.P(1).D": "Success"},
                     suites={"Ns.P(1).D": ["Ns.P", "Ns.P(1)"]})
    counts = {name: untouched_outcome(base, [f"T:{name}"], "").tests_run
              for name in ["Ns.F", "Ns.FG", "Ns.F.C", 'Ns.F.C("x', "Ns", "Ns.P", "Ns.P(1)"]}
    assert counts == {"Ns.F": 2, "Ns.FG": 1, "Ns.F.C": 1, 'Ns.F.C("x': 1, "Ns": 4, "Ns.P": 1, "Ns.P(1)": 1}
    assert untouched_outcome(base, ["T:Ns.F.C(", "T:Ns.F"], "") is None and \
        untouched_outcome(base, ["T:Ns.FG.B", "T:Ns.F"], "").tests_run == 3


def test_an_assembly_whose_untouched_tests_threw_is_read_as_whole():
    """NPOI's test assembly: its untouched run is a runtime_error because some tests threw (each a failure
    before any change, recorded with its cause); every test reported, so a selection beside them is read."""
    base = _baseline({"Ns.F.A": "Success", "Ns.G.B": "Error"},
                     {"T:Ns.G.B": "an exception (System.IndexOutOfRangeException)"}, status="runtime_error", reason="1 test(s) threw System.IndexOutOfRangeException")
    assert untouched_outcome(base, ["T:Ns.F"], "").tests_run == 1


def test_a_selected_test_the_untouched_run_did_not_run_is_skipped_as_a_run_skips_it():
    """NPOI's selections name [Ignore]d tests (TestBugs.Test18800) and tests that ignore themselves when a sample
    file is missing (TestRecordFactory.TestNPOIBug6177: timed, no result state): no run runs them, so the rest
    is read."""
    base = _baseline({"Ns.F.A": "Success"})
    base.assemblies["T"].excluded = {"T:Ns.F.Old": "[Ignore]", "T:Ns.G.Off": "[Explicit]"}
    base.assemblies["T"].seconds["Ns.H.NoFile"] = 0.001
    assert untouched_outcome(base, ["T:Ns.F.A", "T:Ns.F.Old", "T:Ns.G.Off", "T:Ns.H.NoFile"], "").tests_run == 1
    assert untouched_outcome(base, ["T:Ns.G.Off"], "").status == "no_tests"
    assert untouched_outcome(base, ["T:Ns.F.A", "T:Ns.F.Gone"], "") is None


def test_a_test_the_untouched_report_left_out_as_failing_here_is_read_as_left_out():
    """NPOI's scratchpad assembly: 92 tests fail here on a missing sample folder (the test's own code), and the
    untouched run leaves them out of its report (no result state, a failure with its cause). A selection naming
    them is read: they are left out with that cause, the test beside them passes; only a run could say more of a
    test with no state and no cause."""
    base = _baseline({"Ns.F.A": "Success"}, {"T:Ns.F.NoFile": "the test's own code (IOException at Samples.cs:136)"})
    read = untouched_outcome(base, ["T:Ns.F.A", "T:Ns.F.NoFile"], "")
    assert (read.status, read.tests_run) == ("passed", 1)
    assert read.left_out == {"T:Ns.F.NoFile": "fails on the untouched port: the test's own code (IOException at Samples.cs:136)"}
    alone = untouched_outcome(base, ["T:Ns.F.NoFile"], "")
    assert alone.status == "no_tests" and alone.left_out
    other = _baseline({"Ns.F.A": "Success"}, {"U:Ns.F.NoFile": "the test's own code (IOException)"})
    assert untouched_outcome(other, ["T:Ns.F.NoFile"], "") is None      # another assembly's record says nothing


@pytest.mark.parametrize("case", ["blocked", "unknown name", "no states", "not whole", "out of memory", "no baseline"])
def test_the_tests_run_where_the_record_cannot_answer_as_a_run_would(case):
    states = {"Ns.F.A": "Success", "Ns.F.B": "Failure"}
    failures = {"T:Ns.F.B": "blocked by untranslated code (Ns.X.Y)"}
    base = {"blocked": _baseline(states, failures), "unknown name": _baseline(states), "no states": _baseline({}),
            "not whole": _baseline(states, status="timeout"), "no baseline": None,
            "out of memory": _baseline(states, status="runtime_error",
                                       reason="2 test(s) threw System.OutOfMemoryException")}[case]
    # unknown name: a method whose cases the runner reports under names of their own (TestName=...)
    selected = {"blocked": ["T:Ns.F"], "unknown name": ["T:Ns.F.A", "T:Ns.F.Named"]}.get(case, ["T:Ns.F.A"])
    assert untouched_outcome(base, selected, "") is None


@pytest.mark.slow
def test_reading_the_ground_truth_gives_each_tasks_own_verdict(tmp_path):
    needs_mono()
    pair = tmp_path / "pair"
    shutil.copytree(SAMPLE / "java", pair / "java")
    shutil.copytree(SAMPLE / "csharp", pair / "csharp", ignore=shutil.ignore_patterns("bin", "obj"))
    cs = pair / "csharp/src/Acme.Geo/Common/StringUtils.cs"        # a test failing before any change
    cs.write_text(cs.read_text().replace("sb.Append(text);", "sb.Append(text).Append(text);"))
    index = Index.open(tmp_path / "index")
    index.build(pair / "java", pair / "csharp", progress=False)
    tasks = candidate_tasks(index, ["Acme.Common.StringUtils.*", "Acme.Geo.GeometryMath.Clamp*"])
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "runs", trusted=True) as runner:
        base = port_baseline(runner, pair / "csharp", BaselineCache.under(tmp_path / "cache"), timeout=600)
        runner.limits = base.limits(runner.limits)
        rejected = rejected_truths(index, tasks, runner)
        for task in tasks:
            run = validate_task(index, task, runner)
            read = validate_task(index, task, runner, base, rejected)
            assert (read.reason, read.selection, read.selected, read.truth_run) == \
                (run.reason, run.selection, run.selected, run.truth_run), task.id
            assert read.truth_read == bool(run.selected) and not run.truth_read, task.id
    assert rejected == {}
    assert any(t.id.startswith("Acme.Common.StringUtils.Repeat") for t in tasks)
