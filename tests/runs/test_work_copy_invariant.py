"""The work-copy invariant (issue 35): every verdict a batch records is taken on the port plus passing
translations (plus the candidate under judgement), and `--write` writes passing members only.

Each case masks a member that is no task (it stays a placeholder: the blocker), a task whose candidate is
wrong but blocked behind that placeholder (the oracle model answers it wrongly), and correct tasks:
  - wrong callee first: Circle.Area (wrong, blocked behind Circle.Perimeter) is judged before its caller
    ShapeCollection.TotalArea, whose tests reach Area;
  - correct tasks first: Preconditions.CheckPositive and Circle.Intersects pass before their caller
    Circle.Scale (wrong, blocked behind the Circle.Radius getter), which shares Intersects' file.
Real batches: the oracle model over HTTP, mcs builds, NUnit runs."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.execution.judge.runner import Runner
from repotrans.index.store import Index
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.oracle_model import OracleModel
from tests.support.sample_masking import SAMPLE, masked_sample

pytestmark = pytest.mark.slow

AREA, TOTAL = "Acme.Geo.Shapes.Circle.Area()", "Acme.Geo.Shapes.ShapeCollection.TotalArea()"
SCALE, CHECK = "Acme.Geo.Shapes.Circle.Scale(double)", "Acme.Common.Preconditions.CheckPositive(double, string)"
INTERSECTS = "Acme.Geo.Shapes.Circle.Intersects(Circle)"
PERIMETER, RADIUS = "Acme.Geo.Shapes.Circle.Perimeter()", "Acme.Geo.Shapes.Circle.Radius"
WRONG = {  # right for the first thing its tests check, then they reach the blocker; wrong after that
    AREA: "public override double Area()\n{\n    return Math.PI * radius * 2.0; // WRONG-CANDIDATE\n}",
    SCALE: "public Circle Scale(double factor)\n{\n    return new Circle(center, radius * factor * 2.0); // WRONG-CANDIDATE\n}",
}
CASES = {  # name: (wrong task, correct tasks, masked blockers that are no task)
    "wrong callee judged first": (AREA, [TOTAL], [PERIMETER]),
    "correct tasks judged first": (SCALE, [CHECK, INTERSECTS], [RADIUS]),
}
MARK = "WRONG-CANDIDATE"


class WrongOnce(OracleModel):
    """The oracle, but one member is answered with a wrong body (every time it is asked)."""

    def __init__(self, index, wrong: str):
        super().__init__(index)
        self.wrong = wrong

    def _truth(self, member) -> str:
        if member.id == "target:" + self.wrong:
            return WRONG[self.wrong]
        return super()._truth(member)


def _tree_text(root: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in sorted(root.rglob("*.cs")))


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_blocked_candidate_never_reaches_the_work_copy_nor_the_port(case, tmp_path, monkeypatch):
    wrong, correct, blockers = CASES[case]
    java, cs = masked_sample(tmp_path / "pair", wrong, *correct, *blockers)
    (tmp_path / "functions.txt").write_text("\n".join([wrong, *correct]) + "\n")
    full = Index.open(tmp_path / "complete-index")
    full.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)

    runs: list[dict] = []          # every judgement: whose, whether the wrong text was in its tree, its result
    real_run = Runner.run

    def watched(self, index, method, code, **kw):
        result = real_run(self, index, method, code, **kw)
        runs.append({"task": method.id.split(":", 1)[1], "root": str(index.root("target")),
                     "wrong_in_tree": MARK in _tree_text(index.root("target")) or MARK in code,
                     "timings": result.timings, "status": result.status})
        return result

    real_together = Runner.together

    def watched_together(self, index, items, base, **kw):
        results = real_together(self, index, items, base, **kw)
        wrong_in_tree = MARK in _tree_text(index.root("target"))      # a unit's tree: every member's candidate
        runs.extend({"task": m.id.split(":", 1)[1], "root": str(index.root("target")),
                     "wrong_in_tree": wrong_in_tree or MARK in code, "timings": result.timings,
                     "status": result.status} for (m, code, _, _), result in zip(items, results))
        return results

    monkeypatch.setattr(Runner, "run", watched)
    monkeypatch.setattr(Runner, "together", watched_together)
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n[execution]\nsandbox = \"local\"\n")
    run_dir = tmp_path / "run"
    with FakeOpenAIServer(responder=WrongOnce(full, wrong)) as server:
        main(["batch", "--source", str(java), "--target", str(cs), "--run-dir", str(run_dir),
              "--functions", str(tmp_path / "functions.txt"), "--config", str(tmp_path / "repotrans.toml"),
              "--model", "oracle", "--base-url", server.base_url, "--write", "--quiet"])

    db = sqlite3.connect(run_dir / "results.sqlite")
    rows = {t: (s, json.loads(r) if r else None) for t, s, r in db.execute("SELECT task_id, status, result_json FROM results")}
    db.close()
    assert rows[wrong][0] != "passed"
    assert MARK not in _tree_text(cs), "a candidate that did not pass was written into the port"
    assert MARK not in _tree_text(run_dir / "work" / "target"), "the shared work copy holds a non-passing candidate"
    for task in correct:
        status, result = rows[task]
        assert status != "failed", f"{task} was failed by another task's wrong candidate"
        decided = [r for r in runs if r["task"] == task and result and r["timings"] == result.get("timings")]
        assert decided, f"no judgement of {task} matches its recorded verdict"
        assert not any(r["wrong_in_tree"] for r in decided), f"{task}'s verdict was taken with the wrong candidate in its tree"
    summary = json.loads((run_dir / "summary.json").read_text())
    passed = sorted(t for t, (status, _) in rows.items() if status == "passed")
    assert sorted(summary["written"]) == passed          # exactly what passed went in, file by file
    for rel, change in summary["write"].get("files", {}).items():
        assert hashlib.sha256((cs / rel).read_bytes()).hexdigest() == change["sha256"]
    for r in runs:          # no run of another task ever saw the wrong text in the shared work copy
        if r["task"] != wrong and r["root"] == str((run_dir / "work" / "target").resolve()):
            assert not r["wrong_in_tree"], f"{r['task']} was judged on a work copy holding {wrong}'s candidate"
