"""Schemata validation in batches against the per-task path, on the sample's real mcs and NUnit."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.verdicts.results import TestResult
from repotrans.execution.switches.schemata_runs import BatchRun, JobResult
from repotrans.execution.toolchains import Limits
from repotrans.execution.workspace.selection import Selection
from repotrans.datasets import validation as sv
from repotrans.datasets.build import build_dataset

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def _both_paths(target: Path, tmp_path: Path, select: list[str]) -> dict[bool, tuple[set[str], dict[str, str]]]:
    """The dataset of the sample's Java and `target` built on the schemata path (True, in tmp_path/True) and per
    task (False): its task ids and its drops' reasons."""
    found = {}
    for schemata in (True, False):
        ds = build_dataset(SAMPLE / "java", target, tmp_path / str(schemata), select=select, progress=False,
                           jobs=2, schemata=schemata)
        found[schemata] = ({t.id for t in ds.tasks}, {d["id"]: d["reason"] for d in ds.dropped})
    return found


@pytest.mark.slow
def test_batched_verdicts_equal_per_task_and_a_member_a_static_initializer_calls_runs_alone(tmp_path):
    """Vector2D.Zero (a static field) calls the constructor: in a warm process its initializer ran with
    every switch off, so the constructor's placeholder would go unseen. The ground truths are read from the
    baseline (no ground-truth batch, so no hit table); in the warm placeholder batch the constructor's job
    cannot decide "keep" and that task goes to a fresh process."""
    select = ["Acme.Geo.Vector2D.<init>(*)", "Acme.Geo.Vector2D.Dot(*)", "Acme.Geo.Vector2D.Magnitude()",
              "Acme.Geo.Vector2D.Normalize()"]
    found = _both_paths(SAMPLE / "csharp", tmp_path, select)
    assert found[True] == found[False] and len(found[True][0]) == 4
    report = (tmp_path / "True" / "report.md").read_text()
    assert "- schemata test runs: 3 batched, 4 ground truth read from the baseline, 1 switch alone" in report


@pytest.mark.slow
def test_a_ground_truth_the_capability_check_rejects_is_dropped_as_the_per_task_path_drops_it(tmp_path):
    """IsBlank's C# reads the file system, its Java does not: the per-task path's build rejects the
    ground truth before any test runs; the schemata path checks the baseline's IL the same way."""
    target = tmp_path / "csharp"
    shutil.copytree(SAMPLE / "csharp", target)
    utils = target / "src" / "Acme.Geo" / "Common" / "StringUtils.cs"
    utils.write_text(utils.read_text().replace(
        "        public static bool IsBlank(string text)\n        {\n",
        "        public static bool IsBlank(string text)\n        {\n"
        "            if (System.IO.File.Exists(\"/nonexistent/repotrans\")) { return false; }\n", 1))
    select = ["Acme.Common.StringUtils.IsBlank(*)", "Acme.Common.StringUtils.Repeat(*)"]
    found = _both_paths(target, tmp_path, select)
    assert found[True] == found[False]
    assert found[True][0] == {"Acme.Common.StringUtils.Repeat(string, int)"}
    assert found[True][1]["Acme.Common.StringUtils.IsBlank(string)"].startswith(
        "ground truth gives rejected: uses System.IO.File")


def test_a_ground_truth_batch_cut_short_is_resumed_without_the_fixture_it_died_in(monkeypatch):
    """Out of memory in one fixture kills the union run: what reported stays, the fixture's tasks
    run alone, and the fixtures after it start a new batch."""
    suites = {"Ns.A.T1": ["Ns", "Ns.A"], "Ns.B.T1": ["Ns", "Ns.B"], "Ns.B.T2": ["Ns", "Ns.B"], "Ns.C.T1": ["Ns", "Ns.C"]}

    def job(names, reported, cut):
        tests = [("Success", t) for t in reported]
        planned = {t: "Runnable" for t in suites if any(t.startswith(n) for n in names)}
        return JobResult(-1, names, tests, suites, planned=planned, cut=cut)

    asked = []

    def fake_run_batch(ws, built, projects, project, jobs, box, limits, **kw):
        names = jobs[0][1]
        asked.append(list(names))
        if len(asked) == 1:                      # dies in Ns.B after Ns.B.T1
            return BatchRun([], cut=job(names, ["Ns.A.T1", "Ns.B.T1"], True))
        return BatchRun([job(names, ["Ns.C.T1"], False)])

    monkeypatch.setattr(sv, "run_batch", fake_run_batch)
    plans = [sv.Plan(type("T", (), {"id": f"t{n}"}), None, n, Selection([], "covering"), {"P": [name]})
             for n, name in enumerate(["Ns.A", "Ns.B", "Ns.C"])]
    found = sv._truth_batches(plans, None, type("S", (), {"built": {}}), [], {"P": None}, None, None, 1, {})
    assert asked == [["Ns.A", "Ns.B", "Ns.C"], ["Ns.C"]]
    assert found[("t0", "P")][0].passes(["Ns.A"])
    assert ("t1", "P") not in found                       # its fixture stopped the batch: alone
    assert found[("t2", "P")][0].passes(["Ns.C"]) and not found[("t2", "P")][0].cut


def test_a_guard_reached_in_a_static_initializer_by_any_test_sends_its_task_alone():
    """ZXing's GenericGF fields are built by its static initializer: in the union run the first test
    touching GenericGF (another task's) was charged with the constructor's guard, so the constructor's
    own covering tests never reached it there; alone they do (per-task: kept)."""
    first = JobResult(-1, ["Ns.A"], hits={"Ns.A.T1": {"4*", "2"}, "Ns.A.T2": {"3"}})
    second = JobResult(-1, ["Ns.B"], between={"Ns.B": {"7*"}})
    assert sv._initializer_switches({("t0", "P"): [first], ("t1", "P"): [first, second]}) == {4, 7}


@pytest.mark.parametrize("reason,runs", [("tests exceeded the 60 s CPU limit after 7 of 10 planned tests", 1),
                                         ("tests exceeded the 60 s limit after 7 of 10 planned tests", 2)])
def test_tasks_with_one_selection_share_its_ground_truth_and_a_timeout_only_on_a_cpu_limit(monkeypatch, reason, runs):
    """All switches off, two tasks with the same covering tests run the same program: its outcome is
    shared, a timeout too when the run hit a CPU-time limit (the machine's load does not move it); a
    wall-clock timeout is run again for the second task, as the per-task path would."""
    ran = []

    def fake_run_switch(tc, schemata, index, method, switch, box, limits, chosen):
        ran.append(switch)
        return TestResult(status="timeout", reason=reason)

    monkeypatch.setattr(sv, "run_switch", fake_run_switch)
    same = Selection(["P:Ns.A.T1", "P:Ns.A.T2"], "covering")
    other = Selection(["P:Ns.B.T1"], "covering")
    plans = [(sv.Plan(type("T", (), {"id": f"t{n}"}), None, n, chosen), False)
             for n, chosen in enumerate([same, same, other])]
    verdicts = {}
    sv._alone(plans, None, type("S", (), {"count": lambda self, what: None})(), None, None, None, 2,
              lambda plan, why: verdicts.setdefault(plan.task.id, why))
    assert ran == [sv.OFF] * (runs + 1)           # the placeholders never run: every ground truth failed
    assert all(why.startswith("ground truth gives timeout") for why in verdicts.values()) and len(verdicts) == 3


@pytest.mark.slow
def test_a_task_whose_covering_tests_include_one_failing_before_any_change_is_batched(tmp_path):
    """Repeat's covering tests include RepeatConcatenates, broken on the untouched port: every run leaves it out,
    so the ground truth read from the baseline passes Repeat's selection and its placeholder runs in the warm
    batch, without the broken test (was: sent alone, a fresh process for its ground truth and one for its
    placeholder); the verdicts are the per-task path's."""
    target = tmp_path / "csharp"
    shutil.copytree(SAMPLE / "csharp", target, ignore=shutil.ignore_patterns("bin", "obj"))
    utils = target / "src" / "Acme.Geo" / "Common" / "StringUtils.cs"
    utils.write_text(utils.read_text().replace("sb.Append(text);", "sb.Append(text).Append(text);"))
    select = ["Acme.Common.StringUtils.Repeat(*)", "Acme.Common.StringUtils.IsBlank(*)"]
    found = _both_paths(target, tmp_path, select)
    assert found[True] == found[False] and len(found[True][0]) == 2, found
    report = (tmp_path / "True" / "report.md").read_text()
    assert "- schemata test runs: 2 batched, 2 ground truth read from the baseline (" in report, report



def test_a_job_whose_ground_truth_was_read_runs_its_nearest_tests():
    """No hit table: the first JOB_TESTS tests of the selection's nearest project (nearest first), but for
    those failing before any change."""
    names = [f"Ns.F.T{n}" for n in range(40)]
    first = sv._first_tests({"P": names, "Q": ["Ns.G"]}, {"P:Ns.F.T0": "fails on the untouched port"})
    assert first == {"P": names[1:1 + sv.JOB_TESTS]}
    assert sv._first_tests({"P": ["Ns.F.T0"]}, {"P:Ns.F.T0": "fails on the untouched port"}) == {}


def test_an_undecided_placeholder_runs_alone_with_the_tests_that_reached_it_and_a_flipping_test_it_threw_in_counts(monkeypatch):
    """NPOI's CellReference.GetHashCode: its first tests never call it, so its warm job decides nothing. Its hit
    table (a shared ground-truth batch) names the tests that reached its guard, plus a test that failed there
    (it may have stopped before reaching it); only those run with its switch on, in a fresh recording process:
    the others run as with the switch off. A test flipping on the untouched port decides when its guard threw in
    it (the same verdict however many flips the cache knows); one failing every time, or a failure its guard did
    not throw in, does not."""
    hits = JobResult(-1, ["Ns.F", "Ns.G"], [("Success", "Ns.F.A"), ("Success", "Ns.F.B"), ("Error", "Ns.G.C"),
                                            ("Success", "Ns.G.D")],
                     hits={"Ns.F.B": {"5"}, "Ns.G.D": {"6"}})
    plan = sv.Plan(type("T", (), {"id": "t5"}), None, 5, Selection(["P:Ns.F", "P:Ns.G"], "covering", size=4),
                   {"P": ["Ns.F", "Ns.G"]})
    reaching, _ = sv._reaching(plan, [[hits]])
    assert reaching == {"P": ["Ns.F.B"]} and sv._failed_here(plan, [[hits]], {}) == {"P": ["Ns.G.C"]}
    assert sv._failed_here(plan, [[hits]], {"P": {"Ns.G.C": "fails on the untouched port"}}) == {}

    flips = "flips on the untouched port (flaky)"
    switched = {"threw in a flipping test": JobResult(5, ["Ns.F.B"], [("Error", "Ns.F.B")], hits={"Ns.F.B": {"5"}}),
                "flipped before it": JobResult(5, ["Ns.F.B"], [("Error", "Ns.F.B")]),
                "steady failure": JobResult(5, ["Ns.G.C"], [("Error", "Ns.G.C")], hits={"Ns.G.C": {"5"}})}
    assert switched["threw in a flipping test"].caught(frozenset())
    assert not switched["flipped before it"].caught(frozenset())
    assert not switched["steady failure"].caught(frozenset({"Ns.G.C"}))
    limits = Limits(timeout=60.0, memory_mb=512, known_failures=(("P:Ns.F.B", flips), ("P:Ns.G.C", "an exception")))
    asked = []
    for case, job in switched.items():
        monkeypatch.setattr(sv, "run_batch", lambda ws, built, projects, project, jobs, box, limits, **kw:
                            asked.append(jobs) or BatchRun([job]))
        plan.reaching = {"P": job.names}
        why = sv._reaching_alone(plan, type("S", (), {"ws": None, "built": {}})(), [], {"P": None}, None, limits)
        assert (why == "") == (case == "threw in a flipping test"), case
        assert why == "" or why.startswith(sv.PASSES) and "left out" in why, why
    assert asked[0] == [(5, ["Ns.F.B"])]
    monkeypatch.setattr(sv, "run_batch", lambda *a, **kw: BatchRun([], cut=switched["flipped before it"]))
    assert sv._reaching_alone(plan, type("S", (), {"ws": None, "built": {}})(), [], {"P": None}, None, limits) is None


def test_a_placeholder_run_with_no_test_left_to_run_has_not_caught_it(monkeypatch):
    """No hit table: its whole selection runs; when every test that could run is left out (no_tests), nothing
    showed the placeholder failing: dropped, as a passing one is."""
    monkeypatch.setattr(sv, "run_switch", lambda *a, **kw: TestResult(
        status="no_tests", left_out={"P:Ns.F.B": "flips on the untouched port"}))
    plan = sv.Plan(type("T", (), {"id": "t7"}), None, 7, Selection(["P:Ns.F"], "covering"))
    verdicts = {}
    sv._alone([(plan, True)], None, type("S", (), {"count": lambda self, what: None})(), None, None,
              Limits(timeout=60.0, memory_mb=512), 1, lambda p, why: verdicts.setdefault(p.task.id, why))
    assert verdicts["t7"].startswith(sv.PASSES)


def test_a_placeholder_job_whose_guard_threw_in_a_static_initializer_is_marked_to_run_alone_at_once(monkeypatch):
    """NPOI's BitField constructor: records hold BitFields in static fields, so its warm job taints the batch.
    No hit table is learnt for it (a batch of its whole selection, seconds): alone, the first test touching
    the type fails."""
    plans = [sv.Plan(type("T", (), {"id": f"t{n}"}), None, n, Selection([], "covering"), {"P": [f"Ns.F{n}"]})
             for n in range(2)]
    monkeypatch.setattr(sv, "run_batch", lambda *a, **kw: BatchRun(
        [JobResult(0, ["Ns.F0"], [("Error", "Ns.F0.T")], fired=1),
         JobResult(1, ["Ns.F1"], [("Error", "Ns.F1.T")], fired=1, in_initializer=True)], tainted=True))
    out = sv._switch_batches(plans, None, type("S", (), {"built": {}})(), [], {"P": None}, None, None, 1, {})
    assert [(p.task.id, decided, p.initializer) for p, decided in out] == [("t0", True, False), ("t1", False, True)]
