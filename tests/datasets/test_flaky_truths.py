"""Ground-truth failures the baseline does not know are run again on the untouched port (datasets.flaky)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repotrans.datasets import flaky
from repotrans.datasets import validation as sv
from repotrans.datasets.build import build_dataset
from repotrans.execution.judge.baseline import AssemblyBaseline, BaselineCache, PortBaseline
from repotrans.execution.judge.baseline_outcomes import untouched_outcome
from repotrans.execution.switches.schemata_runs import BatchRun, JobResult
from repotrans.execution.toolchains import Limits
from repotrans.execution.workspace.selection import Selection
from repotrans.verdicts.results import TestFailure, TestResult

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
FLIPPING = "Acme.Geo.Tests.Common.StringUtilsTests.WhitespaceIsBlankUnlessOthersRanFirst"


def _baseline(tmp_path: Path) -> PortBaseline:
    record = AssemblyBaseline("P", "k1", status="passed", states={"Ns.A.T1": "Success", "Ns.A.T2": "Success"},
                              suites={"Ns.A.T1": ["Ns", "Ns.A"], "Ns.A.T2": ["Ns", "Ns.A"]})
    return PortBaseline({"P": record}, cache=BaselineCache(tmp_path / "baselines"))


def test_a_failure_the_baseline_does_not_know_runs_again_and_a_flip_is_recorded_in_the_cache(monkeypatch, tmp_path):
    """T1 failed in a ground-truth batch but passed in the baseline: run again alone, it passes (flips); T2 failed
    twice (flips too: the baseline passed it); T3 does not run there (no outcome, nothing recorded). Each flip is
    in the limits' known failures and in the cached record, so a later build or batch leaves it out."""
    truth = {("t0", "P"): [JobResult(-1, ["Ns.A"], [("Failure", "Ns.A.T1"), ("Error", "Ns.A.T2"), ("Success", "Ns.A.T4"),
                                                    ("Failure", "Ns.A.T3"), ("Failure", "Ns.B.T9")])]}
    failed = flaky.unknown_failures(truth, {"t0": {"P": ["Ns.A"]}}, {"P:Ns.A.T4": "known"})
    assert failed == {"P": {"Ns.A.T1", "Ns.A.T2", "Ns.A.T3"}}             # Ns.B.T9 is not the task's
    asked = []

    def fake_run_batch(ws, built, projects, project, jobs, box, limits, **kw):
        asked.append(jobs)
        return BatchRun([JobResult(-1, jobs[0][1], [("Success", "Ns.A.T1"), ("Failure", "Ns.A.T2"),
                                                     ("Ignored", "Ns.A.T3")])])

    monkeypatch.setattr(flaky, "run_batch", fake_run_batch)
    found = flaky.run_again(failed, None, {}, [], {"P": None}, None, Limits(60.0, 512))
    assert asked == [[(flaky.OFF, ["Ns.A.T1", "Ns.A.T2", "Ns.A.T3"])]]     # the untouched port, every switch off
    assert found == {"P:Ns.A.T1": flaky.PASSED_AGAIN, "P:Ns.A.T2": flaky.FAILED_AGAIN}
    base = _baseline(tmp_path)
    limits = flaky.record(found, Limits(60.0, 512, known_failures=(("P:Ns.Z.T", "old"),)), base)
    assert dict(limits.known_failures) == {"P:Ns.Z.T": "old", **found}
    assert BaselineCache(tmp_path / "baselines").get("k1").failures == found
    # read from the baseline, a flipping test's pass decides nothing: left out as a run leaves it out
    read = untouched_outcome(base, ["P:Ns.A"], "Ns.A")
    assert read.status == "no_tests"                 # neither counts as run and passed
    assert set(read.left_out) == {"P:Ns.A.T1", "P:Ns.A.T2"}


def test_a_ground_truth_run_alone_whose_only_failures_flip_passes_and_a_real_failure_stays(monkeypatch):
    """Run alone, a ground truth fails T1 (the baseline passed it): run again on the untouched port it passes, so
    the ground truth passes with T1 left out and the placeholder is judged. A second selection fails T5, which
    fails again: still a flip recorded, and its ground truth passes too. A third fails T7 and the run again
    does not report it: that ground truth stays failed."""
    runs = []

    def fake_run_switch(tc, schemata, index, method, switch, box, limits, chosen):
        runs.append((switch, chosen.tests[0]))
        name = {"P:Ns.A": "Ns.A.T1", "P:Ns.B": "Ns.B.T5", "P:Ns.C": "Ns.C.T7"}[chosen.tests[0]]
        if switch == sv.OFF and f"P:{name}" not in dict(limits.known_failures):
            return TestResult(status="runtime_error", reason="1 test(s) threw System.IndexOutOfRangeException",
                              failures=[TestFailure(name, "boom")], tests_run=3, tests_failed=1)
        return TestResult(status="test_failure" if switch != sv.OFF else "passed", tests_run=3)

    def fake_run_batch(ws, built, projects, project, jobs, box, limits, **kw):
        names = jobs[0][1]
        states = {"Ns.A.T1": "Success", "Ns.B.T5": "Error"}
        return BatchRun([JobResult(-1, names, [(states[n], n) for n in names if n in states])])

    monkeypatch.setattr(sv, "run_switch", fake_run_switch)
    monkeypatch.setattr(flaky, "run_batch", fake_run_batch)
    plans = [(sv.Plan(type("T", (), {"id": f"t{n}"}), None, n, Selection([f"P:{fx}"], "covering")), False)
             for n, fx in enumerate(["Ns.A", "Ns.B", "Ns.C"])]
    schemata = type("S", (), {"count": lambda self, what: None, "ws": None, "built": {}})()
    project = type("Project", (), {"name": "P"})()
    tc = type("TC", (), {"plan": lambda self, ws: type("Plan", (), {"chosen": [project]})()})()
    verdicts = {}
    limits = sv._alone(plans, tc, schemata, None, None, Limits(60.0, 512), 1,
                       lambda plan, why: verdicts.setdefault(plan.task.id, why))
    assert verdicts["t0"] is None and verdicts["t1"] is None             # placeholders judged: kept
    assert verdicts["t2"].startswith("ground truth gives runtime_error: 1 test(s) threw")
    assert dict(limits.known_failures) == {"P:Ns.A.T1": flaky.PASSED_AGAIN, "P:Ns.B.T5": flaky.FAILED_AGAIN}


def test_a_run_cut_short_or_out_of_memory_is_never_settled_as_flipping():
    cut = TestResult(status="runtime_error", reason="out of memory after 3 of 9 planned tests", tests_run=3)
    oom = TestResult(status="runtime_error", reason="out of memory", failures=[TestFailure("Ns.A.T1", "x")],
                     tests_failed=1)
    threw = TestResult(status="runtime_error", reason="1 test(s) threw System.OutOfMemoryException",
                       failures=[TestFailure("Ns.A.T1", "x")], tests_failed=1)
    assert not any(flaky.whole(r) for r in (cut, oom, threw))
    assert flaky.failing_names(cut, {"P": ["Ns.A"]}, {}) is None


@pytest.mark.slow
def test_a_test_failing_only_beside_others_in_a_ground_truth_batch_is_recorded_flipping_and_its_task_kept(tmp_path):
    """Real mcs and NUnit: a covering test of IsBlank fails when another test of its fixture ran before it in a
    schemata process (so in a ground-truth batch, never in the baseline's runs nor alone), as NPOI's formula
    tests fail at random. Where the baseline holds every covered test's outcome, the ground truth is read and
    no ground-truth batch runs: IsBlank is kept and nothing is recorded. Where it cannot answer (a cached record
    without result states, as an older cache has), the batch runs; the build runs the failing test again, alone,
    on the untouched port; it passes: the cached baseline records it as flipping and IsBlank is kept; a further
    build starts with it known."""
    target = tmp_path / "csharp"
    shutil.copytree(SAMPLE / "csharp", target, ignore=shutil.ignore_patterns("bin", "obj"))
    tests = target / "tests" / "Acme.Geo.Tests" / "Common" / "StringUtilsTests.cs"
    flip = """
        static int started;

        [SetUp]
        public void CountTests()
        {
            started++;
        }

        [Test]
        public void WhitespaceIsBlankUnlessOthersRanFirst()
        {
            Assert.IsTrue(StringUtils.IsBlank(" "));
            if (Array.IndexOf(Environment.GetCommandLineArgs(), "--schemata") >= 0 && started > 1)
                Assert.Fail("another test ran first");
        }

        [Test]
        public void RepeatConcatenates()"""
    tests.write_text(tests.read_text().replace("""
        [Test]
        public void RepeatConcatenates()""", flip, 1))
    select = ["Acme.Common.StringUtils.IsBlank(*)"]
    cache = tmp_path / "cache"
    ds = build_dataset(SAMPLE / "java", target, tmp_path / "one", select=select, progress=False, jobs=1,
                       cache_root=cache)
    assert [t.id for t in ds.tasks] == ["Acme.Common.StringUtils.IsBlank(string)"], ds.dropped
    assert "1 ground truth read from the baseline" in (tmp_path / "one" / "report.md").read_text()
    paths = list((cache / "baselines").glob("*.json"))
    assert not [k for p in paths for k in json.loads(p.read_text())["record"]["failures"] if k.endswith(FLIPPING)]
    for path in paths:                                  # as an older cache: no result states to read
        data = json.loads(path.read_text())
        data["record"]["states"] = {}
        path.write_text(json.dumps(data))
    ds = build_dataset(SAMPLE / "java", target, tmp_path / "two", select=select, progress=False, jobs=1,
                       cache_root=cache)
    assert [t.id for t in ds.tasks] == ["Acme.Common.StringUtils.IsBlank(string)"], ds.dropped
    records = [json.loads(p.read_text())["record"] for p in paths]
    recorded = {k: why for r in records for k, why in r["failures"].items() if k.endswith(FLIPPING)}
    assert list(recorded.values()) == [flaky.PASSED_AGAIN], recorded
    assert "1 flipping on the untouched port" in (tmp_path / "two" / "report.md").read_text()
    again = build_dataset(SAMPLE / "java", target, tmp_path / "three", select=select, progress=False, jobs=1,
                          cache_root=cache)
    assert [t.id for t in again.tasks] == [t.id for t in ds.tasks]
    assert any(k.endswith(FLIPPING) for k in again.fails_before_any_change)
    assert "flipping on the untouched port" not in (tmp_path / "three" / "report.md").read_text()   # known from the start


def test_the_per_task_paths_ground_truth_runs_its_unknown_failures_again_on_the_untouched_port(monkeypatch, tmp_path):
    """A member the schemata cannot guard is judged per task: its ground truth (its own body: the untouched port)
    failed T1, which the baseline passed. T1 runs once more on the untouched port (one untouched run, not the
    candidate's) and passes: the ground truth passes with T1 left out, the runner's limits and the cached
    baseline record it. A failure that reports no outcome again keeps the ground truth failed."""
    asked = []

    def fake_untouched_run(tc, ws, lib, tests, box, limits):
        asked.append(tests)
        return type("V", (), {"ran": {"Ns.A.T1": "Success"}, "failures": []})()

    monkeypatch.setattr(flaky, "untouched_run", fake_untouched_run)
    monkeypatch.setattr(flaky, "library_for", lambda chosen, wanted: "lib")
    plan = type("Plan", (), {"chosen": []})()
    runner = type("R", (), {"limits": Limits(60.0, 512), "toolchain": type("TC", (), {"plan": lambda self, ws: plan})(),
                            "workspace": lambda self, target: "ws", "sandbox": lambda self, ws: "box"})()
    base = _baseline(tmp_path)

    def truth(name):
        return TestResult(status="runtime_error", reason="1 test(s) threw System.IndexOutOfRangeException",
                          failures=[TestFailure(name, "boom")], tests_run=5, tests_failed=1, selected=["P:Ns.A"])

    ok = flaky.settle_alone(runner, tmp_path, truth("Ns.A.T1"), base)
    assert asked == [["P:Ns.A.T1"]]
    assert ok.status == "passed" and ok.left_out == {"P:Ns.A.T1": flaky.PASSED_AGAIN} and ok.tests_run == 4
    assert dict(runner.limits.known_failures) == {"P:Ns.A.T1": flaky.PASSED_AGAIN}
    assert BaselineCache(tmp_path / "baselines").get("k1").failures == {"P:Ns.A.T1": flaky.PASSED_AGAIN}
    still = flaky.settle_alone(runner, tmp_path, truth("Ns.A.T2"), base)
    assert still.status == "runtime_error" and asked[-1] == ["P:Ns.A.T2"]
