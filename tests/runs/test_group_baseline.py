"""A unit judged together (runs.rejudge.judge_together: every member's candidate in one tree) has each member's
capability check compare the unit's build with the work copy's own, the tree without any member: a helper method a
member's candidate adds is inspected. Compared with the unit's tree itself, the helper would sit in the baseline and
the member, whose own body only calls a method of the port, would pass. Real mcs builds, checker and NUnit runs on
the sample with Vector2D.Dot and Vector2D.Cross masked, in both sandboxes; an override a member declares is judged
with its own Java class's allowances (Runner.own_check: each member's code alone under its own), one a member adds in its class stays denied."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from repotrans.runs.rejudge import WorkCopy, _judge_group, judge_together
from repotrans.runs.store import TaskRecord
from tests.support.mono_repos import SANDBOXES
from tests.support.sample_masking import SAMPLE, masked_sample

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
    root, copy, originals = _masked(tmp_path_factory.mktemp(f"group-baseline-{request.param}"),
                                    {DOT: "Vector2D.dot", CROSS: "Vector2D.cross"})
    with Runner(ExecutionConfig(sandbox=request.param), root / "wd") as runner:
        yield copy, runner, originals
    copy.index.close()


def _masked(root: Path, originals: dict[str, str]):
    """(root, the sample's work copy with `originals`' C# members masked, indexed; C# task id -> its Java
    original, found by the given query)."""
    java, cs = masked_sample(root, *originals)
    index = Index.open(root / "index")
    index.build(java, cs, progress=False)
    return root, WorkCopy(index, java, cs), {"target:" + member: index.find_methods("source", query)[0]
                                             for member, query in originals.items()}


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


TO_STRING, IS_BLANK = "Acme.Geo.Vector2D.ToString()", "Acme.Common.StringUtils.IsBlank(string)"
# IsBlank right, with a class of its own overriding ToString (StringUtils is static), which no Java class defines
OVERRIDING = ("public static bool IsBlank(string text)\n{\n    return text == null || text.Trim().Length == 0;\n}\n"
              "private sealed class Shown\n{\n    public override string ToString()\n    {\n        return \"blank\";\n    }\n}")


@pytest.fixture(scope="module", params=SANDBOXES)
def mixed(request, tmp_path_factory):
    """Vector2D.ToString (its Java class defines toString: `formatting` allowed) and StringUtils.IsBlank (none)."""
    root, copy, originals = _masked(tmp_path_factory.mktemp(f"group-mixed-{request.param}"),
                                    {TO_STRING: "Vector2D.toString", IS_BLANK: "StringUtils.isBlank"})
    truth = {t: member_text(t) for t in (TO_STRING, IS_BLANK)}
    with Runner(ExecutionConfig(sandbox=request.param), root / "wd") as runner:
        yield copy, runner, originals, truth
    copy.index.close()


def member_text(task: str) -> str:
    index = Index.open(Path(tempfile.mkdtemp()) / "full")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    m = index.method("target:" + task)
    text = (SAMPLE / "csharp" / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")
    index.close()
    return text


def test_an_override_a_member_declares_is_judged_with_its_own_classs_allowances(mixed, tmp_path):
    """Every job inspects everything the unit added; Vector2D's ToString, a member of the unit, is allowed by its
    own Java class, not rejected in IsBlank's job (whose class defines no toString)."""
    copy, runner, java, truth = mixed
    records = [TaskRecord(config="batch", dataset="sample", task_id=t, status="blocked", code=truth[t])
               for t in (TO_STRING, IS_BLANK)]
    results = _judge_group(copy, tmp_path / "group", records, runner, java)
    assert [r.status for r in results] == ["passed", "passed"], [r.brief() for r in results]


def test_an_override_a_member_adds_in_its_own_class_stays_denied(mixed, tmp_path):
    copy, runner, java, truth = mixed
    records = [TaskRecord(config="batch", dataset="sample", task_id=TO_STRING, status="blocked", code=truth[TO_STRING]),
               TaskRecord(config="batch", dataset="sample", task_id=IS_BLANK, status="blocked", code=OVERRIDING)]
    results = _judge_group(copy, tmp_path / "group", records, runner, java)
    assert results[1].status == "rejected" and "Shown::ToString" in results[1].reason, results[1].brief()
