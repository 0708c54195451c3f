"""`repotrans sync` end to end on the bundled history (real mono builds and the port's NUnit tests):
each kind of upstream change with its outcome, the local adaptation kept, a patch `git apply` takes,
removals reported (and deleted only when the tests pass without them), and the model path on a fake
OpenAI-compatible server showing the sync_edit slots."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.cli.main import main
from repotrans.sync.history import export

from .conftest import SAMPLE

pytestmark = pytest.mark.slow
G, U = "org.acme.geometry", "org.acme.util"
SEG = f"{G}.Segment"
# the bundled history's sync, uninterrupted: (action, change kind, Java member, status, how), in report order
OUTCOMES = [
    ("rename", "renamed", f"{G}.Vector2D.length()", "passed", ""),
    ("move", "moved", f"{G}.Point2D.orientation(Point2D, Point2D, Point2D)", "passed", ""),
    # callee-first: checkArgument before the members that call it
    ("edit", "body", f"{G}.GeometryMath.clamp(double, double, double)", "passed", "statements"),
    ("edit", "signature", f"{U}.Preconditions.checkArgument(boolean, Object)", "passed", "statements"),
    ("edit", "body", f"{G}.Vector2D.angleTo(Vector2D)", "passed", "statements"),
    ("edit", "body", f"{G}.Vector2D.normalize()", "passed", "statements"),
    ("edit", "body", f"{G}.shapes.Polygon.isConvex()", "passed", "statements"),
    ("remove", "removed", f"{U}.StringUtils.toSnakeCase(String)", "for a human", ""),
    ("create", "added", f"{SEG}.<init>(Point2D, Point2D)", "no_tests", "batch"),
    ("create", "added", f"{SEG}.getEnd()", "no_tests", "batch"),
    ("create", "added", f"{SEG}.getStart()", "no_tests", "batch"),
    ("create", "added", f"{SEG}.length()", "no_tests", "batch"),
    ("create", "added", f"{SEG}.midpoint()", "no_tests", "batch"),
    ("create", "added", f"{G}.Vector2D.negate()", "passed", "batch"),
    ("create type", "added", SEG, "for a human", ""),
]


@pytest.fixture(scope="module")
def synced(history, tmp_path_factory):
    root = tmp_path_factory.mktemp("sync")
    code = main(["--workdir", str(root / "wd"), "sync", "--source", str(history), "--since", "v1", "--until", "v2",
                 "--target", str(SAMPLE / "csharp"), "--run-dir", str(root / "run"), "--patch", str(root / "sync.patch"),
                 "--model", "builtin", "--quiet"])
    return code, root, json.loads((root / "run" / "sync.json").read_text())


def outcomes_of(report: dict) -> list[tuple]:
    """A sync report's outcomes as OUTCOMES lists them."""
    return [(o["action"], o["change"]["kind"], (o["change"]["new_id"] or o["change"]["old_id"]).split(":", 1)[1],
             o["status"], o["how"]) for o in report["outcomes"]]


def test_every_kind_of_upstream_change_has_its_outcome(synced):
    code, _, report = synced
    assert code == 1                     # a removal and the untested new type are left for a human
    assert outcomes_of(report) == OUTCOMES
    assert report["whole_suite"] == {"status": "passed", "reason": "", "tests_run": 214, "tests_failed": 0}
    clamp = next(o for o in report["outcomes"] if o["change"]["new_id"].endswith("clamp(double, double, double)"))
    assert clamp["adapted"] is True and clamp["change"]["commits"] == ["1840bda"]


def test_the_report_is_per_upstream_commit(synced):
    _, root, report = synced
    assert [(c["sha"][:7], len(c["outcomes"])) for c in report["commits"]] == [
        ("1840bda", 1), ("a1d8d89", 1), ("a7c4a89", 3), ("100dec2", 2), ("4e87bd1", 1), ("d4c620f", 7)]
    md = (root / "run" / "sync.md").read_text()
    assert "## 4e87bd1 StringUtils: drop toSnakeCase" in md
    assert "- remove `org.acme.util.StringUtils.toSnakeCase(String)` -> `Acme.Common.StringUtils.ToSnakeCase(string)`: " \
           "**for a human**: removed upstream; kept in the port" in md
    # the untouched port's baseline, taken before any step (its failing and flipping tests judge no step)
    assert report["baseline"]["tests_run"] == report["whole_suite"]["tests_run"] and report["baseline"]["failing"] == 0
    assert f"untouched port (baseline): {report['baseline']['tests_run']} tests run" in md


def test_only_what_passed_is_in_the_patch_and_git_apply_takes_it(synced, tmp_path):
    _, root, _ = synced
    patch = (root / "sync.patch").read_text()
    assert patch == (root / "run" / "changes.patch").read_text()
    files = [line.split(" b/", 1)[1] for line in patch.splitlines() if line.startswith("diff --git ")]
    assert files == ["src/Acme.Geo/Common/Preconditions.cs", "src/Acme.Geo/GeometryMath.cs", "src/Acme.Geo/Point2D.cs",
                     "src/Acme.Geo/Shapes/Polygon.cs", "src/Acme.Geo/Vector2D.cs",
                     "tests/Acme.Geo.Tests/GeometryMathTests.cs", "tests/Acme.Geo.Tests/Vector2DTests.cs"]
    assert "Segment" not in patch and "NotImplementedException" not in patch
    assert "+            if (double.IsNaN(value))" in patch
    assert "min.ToString(CultureInfo.InvariantCulture)" not in [line[1:] for line in patch.splitlines()
                                                               if line.startswith("-")]
    port = tmp_path / "port"
    shutil.copytree(SAMPLE / "csharp", port)
    subprocess.run(["git", "init", "-q"], cwd=port, check=True)
    done = subprocess.run(["git", "apply", str(root / "sync.patch")], cwd=port, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "public double Length()" in (port / "src/Acme.Geo/Vector2D.cs").read_text()


def _one_change_trees(tmp_path: Path, history: Path) -> tuple[Path, Path]:
    """v1 and v1 + the clamp commit only, as plain trees (--source-before)."""
    before = export(history, "v1", tmp_path / "before")
    after = export(history, "1840bda", tmp_path / "after")
    return before, after


def test_remove_deletes_only_when_the_tests_pass_without_it(history, tmp_path):
    before = export(history, "100dec2", tmp_path / "before")      # the commit before the removal
    after = export(history, "4e87bd1", tmp_path / "after")
    run = tmp_path / "run"
    code = main(["--workdir", str(tmp_path / "wd"), "sync", "--source-before", str(before), "--source", str(after),
                 "--target", str(SAMPLE / "csharp"), "--run-dir", str(run), "--remove", "--model", "builtin", "--quiet"])
    report = json.loads((run / "sync.json").read_text())
    removal = next(o for o in report["outcomes"] if o["action"] == "remove")
    assert code == 1 and removal["status"] == "for a human"
    # the port's StringUtilsTests call it: without it that fixture no longer builds (22 test cases)
    assert removal["reason"] == "kept: without it 22 of the port's tests no longer build"
    assert "ToSnakeCase" in (run / "work" / "target" / "src/Acme.Geo/Common/StringUtils.cs").read_text()


def test_model_path_sends_the_sync_slots(history, tmp_path):
    from tests.support.fake_openai_server import FakeOpenAIServer

    before, after = _one_change_trees(tmp_path, history)
    answer = ("```csharp\npublic static double Clamp(double value, double min, double max)\n{\n"
              "    if (min > max)\n    {\n        throw new ArgumentException(\"min \" + "
              "min.ToString(CultureInfo.InvariantCulture) + \" is greater than max \" + "
              "max.ToString(CultureInfo.InvariantCulture));\n    }\n    if (double.IsNaN(value))\n    {\n"
              "        return value;\n    }\n    return Math.Min(max, Math.Max(min, value));\n}\n```")
    with FakeOpenAIServer([answer], repeat=True) as server:
        code = main(["--workdir", str(tmp_path / "wd"), "sync", "--source-before", str(before), "--source", str(after),
                     "--target", str(SAMPLE / "csharp"), "--run-dir", str(tmp_path / "run"), "--quiet",
                     "--model", "fake-coder", "--base-url", server.base_url, "--no-cache"])
        prompts = [m["content"] for body in server.requests for m in body["messages"]]
    report = json.loads((tmp_path / "run" / "sync.json").read_text())
    assert code == 0
    assert [(o["action"], o["status"], o["how"]) for o in report["outcomes"]] == [("edit", "passed", "model")]
    assert report["outcomes"][0]["tokens"] > 0
    prompt = next(p for p in prompts if p.startswith("# Step: carry an upstream change into the port"))
    for heading in ("### Old Java (the revision the port follows)", "### New Java", "### Java diff",
                    "### The port's current C# member"):
        assert heading in prompt
    assert "+    if (Double.isNaN(value)) {" in prompt
    assert "min.ToString(CultureInfo.InvariantCulture)" in prompt.split("### The port's current C# member", 1)[1]


def test_junit_tests_of_a_new_type_are_translated_and_judge_its_members(history, tmp_path):
    before = export(history, "4e87bd1", tmp_path / "before")       # the commit before the addition
    after = export(history, "v2", tmp_path / "after")
    run = tmp_path / "run"
    code = main(["--workdir", str(tmp_path / "wd"), "sync", "--source-before", str(before), "--source", str(after),
                 "--target", str(SAMPLE / "csharp"), "--run-dir", str(run), "--junit", "src/test/java",
                 "--model", "builtin", "--quiet"])
    report = json.loads((run / "sync.json").read_text())
    assert code == 0
    assert [(o["action"], o["change"]["new_id"].split(":", 1)[1], o["status"], o["judged_by"])
            for o in report["outcomes"]] == [
        ("create", f"{G}.Segment.<init>(Point2D, Point2D)", "passed", "translated tests"),
        ("create", f"{G}.Segment.getEnd()", "passed", "translated tests"),
        ("create", f"{G}.Segment.getStart()", "passed", "translated tests"),
        ("create", f"{G}.Segment.length()", "passed", "translated tests"),
        ("create", f"{G}.Segment.midpoint()", "passed", "translated tests"),
        ("create", f"{G}.Vector2D.negate()", "passed", ""),
        ("create type", f"{G}.Segment", "passed", ""),
    ]
    patch = (run / "changes.patch").read_text()
    assert [line.split(" b/", 1)[1] for line in patch.splitlines() if line.startswith("diff --git ")] == [
        "src/Acme.Geo/Segment.cs", "src/Acme.Geo/Vector2D.cs", "tests/Acme.Geo.Tests/SegmentTests.cs"]
    assert '[Category("RepotransTranslated")]' in patch and "NotImplementedException" not in patch
