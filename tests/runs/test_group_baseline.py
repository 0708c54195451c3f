"""A unit judged together (runs.rejudge.judge_together: every member's candidate in one tree) has each member's
capability check compare the unit's build with the work copy's own, the tree without any member: a helper method a
member's candidate adds is inspected. Compared with the unit's tree itself, the helper would sit in the baseline and
the member, whose own body only calls a method of the port, would pass. Real mcs builds, checker and NUnit runs on
the sample with Vector2D.Dot and Vector2D.Cross masked, in both sandboxes."""
from __future__ import annotations

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from repotrans.runs.rejudge import WorkCopy, _judge_group, judge_together
from repotrans.runs.store import TaskRecord
from tests.support.mono_repos import SANDBOXES
from tests.support.sample_masking import masked_sample

pytestmark = pytest.mark.slow
DOT, CROSS = "Acme.Geo.Vector2D.Dot(Vector2D)", "Acme.Geo.Vector2D.Cross(Vector2D)"
RIGHT = {DOT: "public double Dot(Vector2D other)\n{\n    return x * other.x + y * other.y;\n}",
         CROSS: "public double Cross(Vector2D other)\n{\n    return x * other.y - y * other.x;\n}"}
# right on every test, through a helper of its own that also reaches process control
HIDING = ("public double Dot(Vector2D other)\n{\n    return Product(other);\n}\n"
          "private double Product(Vector2D other)\n{\n    System.Diagnostics.Process.GetCurrentProcess();\n"
          "    return x * other.x + y * other.y;\n}")


@pytest.fixture(scope="module", params=SANDBOXES)
def unit(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"group-baseline-{request.param}")
    java, cs = masked_sample(root, DOT, CROSS)
    index = Index.open(root / "index")
    index.build(java, cs, progress=False)
    copy = WorkCopy(index, java, cs)
    originals = {"target:" + DOT: index.find_methods("source", "Vector2D.dot")[0],
                 "target:" + CROSS: index.find_methods("source", "Vector2D.cross")[0]}
    with Runner(ExecutionConfig(sandbox=request.param), root / "wd") as runner:
        yield copy, runner, originals
    index.close()


def _records(dot: str) -> list[TaskRecord]:
    return [TaskRecord(config="batch", dataset="sample", task_id=DOT, status="blocked", code=dot),
            TaskRecord(config="batch", dataset="sample", task_id=CROSS, status="blocked", code=RIGHT[CROSS])]


def test_right_members_pass_together_on_one_build(unit, tmp_path):
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records(RIGHT[DOT]), runner, java)
    assert [r.status for r in results] == ["passed", "passed"], [r.brief() for r in results]
    assert all(r.judge == "together: 2 candidates in one build" for r in results)
    assert [rec.task_id for rec, _ in judge_together(copy, _records(RIGHT[DOT]), runner, java, lambda line: None)] \
        == [DOT, CROSS]


def test_a_helper_a_member_adds_is_inspected_not_hidden_in_the_baseline(unit, tmp_path):
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records(HIDING), runner, java)
    dot = results[0]
    assert dot.status == "rejected" and "Process" in dot.reason, dot.brief()
    assert judge_together(copy, _records(HIDING), runner, java, lambda line: None) == []
    assert (copy.path / "src" / "Acme.Geo" / "Vector2D.cs").read_text().count("NotImplementedException") == 2
