"""One candidate's planned runs side by side (toolchains.test_runs.run_all with `processes`, test_processes): the
verdict is the one-at-a-time verdict, runs under way at once overlap and each has its own test area, and a run
on the untouched build goes alone (RunGate). Real mcs and repotrans's NUnit runner for the areas."""
from __future__ import annotations

import random
import re
import threading
import time

import pytest

from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.test_runs import Measured, RunGate, TestRun, halves, run_all
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree


def _plan(rng: random.Random) -> tuple[list[TestRun], dict[str, str]]:
    """Runs of 1-4 names, each name's outcome: ok, fail, or (several names in one run) out of memory."""
    runs, outcome = [], {}
    for n in range(rng.randint(1, 7)):
        names = tuple(f"r{n}t{k}" for k in range(rng.randint(1, 4)))
        runs.append(TestRun(names))
        for name in names:
            outcome[name] = rng.choice(["ok"] * 6 + ["fail", "heap"])
    return runs, outcome


def _judge(outcome: dict[str, str], pause: bool):
    def one(run: TestRun):
        if pause:                                   # later runs may end first
            time.sleep(random.random() / 200)
        states = [outcome[n] for n in run.names]
        if "heap" in states and len(run.names) > 1:
            return f"oom{run.names}", True
        return ("fail" if any(s != "ok" for s in states) else "ok") + str(run.names), False
    return one


def test_runs_side_by_side_give_the_one_at_a_time_verdict():
    """Over 300 random plans (failures, memory stops split into halves): the same verdicts in the same order,
    the same `cut`, with two and three runs at a time as with one."""
    rng = random.Random(7)
    for _ in range(300):
        runs, outcome = _plan(rng)
        answers = [run_all(runs, _judge(outcome, pause=n > 1), lambda v: v.startswith("ok"),
                           lambda r: halves(r, 10.0, Measured()), processes=n) for n in (1, 2, 3)]
        assert answers[1] == answers[0] and answers[2] == answers[0], (runs, outcome)


def test_runs_side_by_side_are_under_way_at_once_after_the_first_went_alone():
    """The first run goes alone (a failing candidate usually fails there and pays for nothing beside it: NPOI
    BitField's constructor task took 24 s instead of 2.6 s with its placeholder's second run under way); the two
    after it each wait for the other to start and both finish with two processes (one at a time, the first of
    them would wait in vain)."""
    both = threading.Barrier(2, timeout=10)
    seen = []

    def one(run: TestRun):
        seen.append((run.names[0], both.n_waiting))
        if run.names != ("first",):
            both.wait()
        return "ok", False

    runs = [TestRun(("first",)), TestRun(("a",)), TestRun(("b",))]
    done, cut = run_all(runs, one, lambda v: v == "ok", lambda r: [], processes=2)
    assert done == ["ok", "ok", "ok"] and not cut and seen[0] == ("first", 0)
    failing = []

    def fails_first(run: TestRun):
        failing.append(run.names)
        return ("fail" if run.names == ("first",) else "ok"), False

    assert run_all(runs, fails_first, lambda v: v == "ok", lambda r: [], processes=2) == (["fail"], True)
    assert failing == [("first",)]                  # nothing started beside the failing first run


def test_a_run_on_the_untouched_build_goes_alone():
    """`alone` waits until the candidate runs under way end, and no candidate run starts until it ends."""
    gate, log, lock = RunGate(), [], threading.Lock()
    started = threading.Event()

    def note(what: str) -> None:
        with lock:
            log.append(what)

    def candidate(name: str, hold: float) -> None:
        with gate.beside():
            note(f"{name}+")
            started.set()
            time.sleep(hold)
            note(f"{name}-")

    def untouched() -> None:
        started.wait()
        with gate.alone():
            note("U+")
            time.sleep(0.2)
            note("U-")

    first = threading.Thread(target=candidate, args=("A", 0.4))
    alone = threading.Thread(target=untouched)
    first.start(), alone.start()
    time.sleep(0.1)                       # the untouched run is waiting for A: B must not start before it
    later = threading.Thread(target=candidate, args=("B", 0.0))
    later.start()
    for t in (first, alone, later):
        t.join(10)
    assert log == ["A+", "A-", "U+", "U-", "B+", "B-"], log


FILES = core_and_tests(
    {"Calc.cs": "namespace Acme { public static class Calc { public static int Twice(int x) { return %s; } } }"},
    {"ClaimTests.cs": """using System; using System.IO; using NUnit.Framework;
namespace Acme.Tests {
  public static class Claim {
    // the run's folder is the test area: a file another run left there means two runs share it
    public static void Hold(string who, int x, int expected) {
      Assert.IsFalse(File.Exists("claim.txt"), "the area holds another run's claim");
      File.WriteAllText("claim.txt", who);
      Console.WriteLine("@@SPAN " + who + " " + DateTime.UtcNow.Ticks);
      System.Threading.Thread.Sleep(3000);
      Console.WriteLine("@@SPAN " + who + " " + DateTime.UtcNow.Ticks);
      File.Delete("claim.txt");
      Assert.AreEqual(expected, Calc.Twice(x));
    }
  }
  [TestFixture] public class Near { [Test] public void Doubles() { Claim.Hold("near", 3, 6); } }
  [TestFixture] public class Mid { [Test] public void DoublesOne() { Claim.Hold("mid", 1, 2); } }
  [TestFixture] public class Far { [Test] public void DoublesToo() { Claim.Hold("far", 2, 4); } }
}"""})
MEASURED = {"T": {"Acme.Tests.Near.Doubles": 3.0, "Acme.Tests.Mid.DoublesOne": 3.0, "Acme.Tests.Far.DoublesToo": 3.0}}


def _spans(log: str) -> dict[str, list[int]]:
    spans: dict[str, list[int]] = {}
    for who, ticks in re.findall(r"@@SPAN (\w+) (\d+)", log):
        spans.setdefault(who, []).append(int(ticks))
    return spans


@pytest.mark.slow
def test_real_runs_side_by_side_overlap_in_areas_of_their_own_with_the_same_verdict(tmp_path):
    """Near, Mid and Far (measured: three runs) each claim a file in their run's folder for 3 s. Two processes:
    Near goes alone first, then Mid and Far side by side: all pass (no run sees another's claim) and Mid's and
    Far's spans overlap; a wrong body is judged by Near's failure alone, one process or two."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    selection = ["T:Acme.Tests.Near", "T:Acme.Tests.Mid", "T:Acme.Tests.Far"]
    limits = Limits(timeout=60, memory_mb=1024, test_seconds=MEASURED, fail_fast=True, test_processes=2)
    calc = FILES["src/Core/Calc.cs"]
    with judging(repo, tmp_path / "work", limits) as judge:
        right = judge.run("src/Core/Calc.cs", calc % "x * 2", selection)
        wrong_two = judge.run("src/Core/Calc.cs", calc % "x + 1", selection)
        judge.limits = Limits(timeout=60, memory_mb=1024, test_seconds=MEASURED, fail_fast=True)
        wrong_one = judge.run("src/Core/Calc.cs", calc % "x + 1", selection)
    assert (right.status, right.tests_run) == ("passed", 3), (right.status, right.reason)
    spans = _spans(right.log)
    assert sorted(spans) == ["far", "mid", "near"] and all(len(s) == 2 for s in spans.values()), right.log[-2000:]
    assert spans["near"][1] <= min(spans["mid"][0], spans["far"][0]), spans                   # Near alone first
    assert spans["mid"][0] < spans["far"][1] and spans["far"][0] < spans["mid"][1], spans     # under way at once
    for wrong in (wrong_two, wrong_one):
        assert (wrong.status, [f.name for f in wrong.failures]) == ("test_failure", ["Acme.Tests.Near.Doubles"])
