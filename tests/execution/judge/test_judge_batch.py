"""Candidates judged together behind switches (execution.judge.batching) get the per-candidate path's
verdicts: real mcs, the real capability checker and NUnit runs in the local sandbox, on a small pair
whose members are placeholders (tests/fixtures/switched_pair)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from repotrans.execution.judge.batching import BatchingJudge, judge_for
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index

pytestmark = pytest.mark.slow
PAIR = Path(__file__).resolve().parents[2] / "fixtures" / "switched_pair"
MIX = {                                                   # member -> (candidate, per-candidate status)
    "Arith.Add": ("{\n    int unused = 1;\n    return a + b;\n}", "passed"),     # its warning, at its own line
    "Arith.Twice": ("{\n    return a * 3;\n}", "test_failure"),
    "Arith.Square": ("{\n    return a * undefinedThing;\n}", "compile_error"),        # bisected out
    "Arith.Negate": ("public static int Negate(int a)\n{\n    return -a;\n}", "passed"),    # whole member
    # reaches a member whose candidate shares its build: with its switch off that member is the placeholder, which
    # the candidate calls itself with no Java original (java=None) to say it should: judged on its own, never blocked
    "Words.Shout": ("{\n    Arith.Negate(1);\n    return text.ToUpperInvariant();\n}", "runtime_error"),
    "Words.Count": ("{\n    System.IO.File.WriteAllText(\"/tmp/x\", text);\n    return text.Length;\n}", "rejected"),
    "Words.Echo": ("{\n    if (text == \"x\") throw new System.InvalidOperationException(\"boom\");\n"
                   "    return text;\n}", "runtime_error"),
    "Words.Size": ("public int Size\n{\n    get\n    {\n        return 4;\n    }\n}", "passed"),     # an accessor
}
HOSTILE = {
    # the switches' class exists only in a shared build: named (even through an escape) it is judged alone
    "Arith.Add": ("{\n    if (Repotrans\\u0043andidateSwitch.On(0)) return 5;\n    return 0;\n}", "compile_error"),
    # reading or flipping a switch by reflection is a capability the policy denies
    "Arith.Twice": ("{\n    var t = System.Type.GetType(\"RepotransCandidateSwitch\");\n"
                    "    t.GetField(\"active\", (System.Reflection.BindingFlags)40).SetValue(null, 0);\n"
                    "    return a * 2;\n}", "rejected"),
    # static state one candidate sets is never seen by another's tests (each runs in its own process)
    "Arith.Square": ("{\n    Words.Greeting = \"evil\";\n    return a * a;\n}", "passed"),
    "Words.Shout": ("{\n    return Words.Greeting.ToUpper();\n}", "passed"),
}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("judge_batch")
    index = Index.open(root / "wd")
    index.build(PAIR / "java", PAIR, progress=False)
    with Runner(ExecutionConfig(sandbox="local", timeout=60.0), root / "wd") as runner:
        yield index, runner
    index.close()


def items(index, table: dict) -> list:
    return [(index.find_methods("target", query)[0], code, frozenset(), None) for query, (code, _) in table.items()]


def alone(index, runner, table: dict) -> list:
    results = [runner.run(index, m, code, allow=allow, java=None) for m, code, allow, _ in items(index, table)]
    assert [r.status for r in results] == [status for _, status in table.values()]
    return results


def _counted(runner, monkeypatch) -> list:
    """Every candidate the runner plans into its file (Runner.patch), from here on."""
    planned, patch = [], runner.patch
    monkeypatch.setattr(runner, "patch", lambda index, method, code: planned.append(method.id) or patch(index, method, code))
    return planned


def test_a_mix_judged_together_gets_the_per_candidate_verdicts(env, monkeypatch):
    index, runner = env
    expected = alone(index, runner, MIX)
    judge = BatchingJudge(runner)
    planned = _counted(runner, monkeypatch)
    together = judge.run_many(index, items(index, MIX))
    assert len(planned) == len(MIX)         # Square, grouped then judged alone, is planned once
    assert [r.evidence() for r in together] == [r.evidence() for r in expected]
    assert judge.compiles == 2              # the shared build, its error in Square's lines, the rest again
    assert together[2].judge == "alone: the shared build failed in its lines: compiled alone"
    assert {r.judge for i, r in enumerate(together) if i != 2} == {"batched: 7 candidates in one compile"}
    assert not any((runner.workspace(index.root("target")).root / "candidates").iterdir())


def test_concurrent_workers_share_one_compile(env):
    index, runner = env
    table = {k: MIX[k] for k in ("Arith.Add", "Arith.Twice", "Words.Shout", "Words.Echo")}
    expected = alone(index, runner, table)
    judge = BatchingJudge(runner, expected=len(table), window=30.0)
    with ThreadPoolExecutor(len(table)) as pool:
        together = list(pool.map(lambda item: judge.run(index, item[0], item[1], allow=item[2], java=None), items(index, table)))
    assert [r.evidence() for r in together] == [r.evidence() for r in expected]
    assert judge.compiles == 1
    assert {r.judge for r in together} == {"batched: 4 candidates in one compile"}


def test_hostile_candidates_cannot_reach_the_switches(env, monkeypatch):
    index, runner = env
    expected = alone(index, runner, HOSTILE)
    planned = _counted(runner, monkeypatch)
    together = BatchingJudge(runner).run_many(index, items(index, HOSTILE))
    assert len(planned) == len(HOSTILE)     # Add, judged alone for its body, is planned once
    assert [r.evidence() for r in together] == [r.evidence() for r in expected]
    assert together[0].judge.startswith("alone: its body has the switches' own class")
    assert together[1].judge.startswith("batched:")      # rejected by its own check, not by another's


def test_unsound_or_lone_candidates_are_judged_alone_and_say_why(env):
    index, runner = env
    [add] = index.find_methods("target", "Arith.Add")
    lone = BatchingJudge(runner).run_many(index, [(add, "{\n    return a + b;\n}", frozenset(), None)])
    assert lone[0].status == "passed" and lone[0].judge == "alone: no other candidate was pending"
    granted = BatchingJudge(runner).run_many(index, [(add, "{\n    return a + b;\n}", frozenset({"file_system"}), None),
                                                     (add, "{\n    return b + a;\n}", frozenset(), None)])
    assert granted[0].judge.startswith("alone: its Java original grants file_system")
    assert granted[0].trust and granted[1].judge == "alone: no other candidate was pending"


def test_the_setting_wraps_the_runner(tmp_path):
    with Runner(ExecutionConfig(sandbox="local"), tmp_path) as plain, \
            Runner(ExecutionConfig(sandbox="local", batch_candidates=True), tmp_path) as batching:
        assert judge_for(plain, 4) is plain
        judge = judge_for(batching, 4)
        assert isinstance(judge, BatchingJudge) and judge.expected == 4 and judge.runner is batching
