"""What a batch takes for a task (issue 35): `throw new NotImplementedException()` in its spellings, a
weaker form only where the Java method does more (or when widened), never a member of a test project;
--dry-run says why each task is one and keeps Java signatures whole."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.mapping.load import load_mapping
from repotrans.runs.batch_plan import BatchPlan, _member, plan_batch
from repotrans.runs.task_choice import task_reasons
from repotrans.index.placeholders import placeholder_form
from repotrans.index.store import Index

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
CIRCLE_CS = "src/Acme.Geo/Shapes/Circle.cs"
CIRCLE_JAVA = "src/main/java/org/acme/geometry/shapes/Circle.java"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def _pair(tmp_path: Path, java_intersects_trivial: bool) -> Index:
    shutil.copytree(SAMPLE / "java", tmp_path / "java")
    shutil.copytree(SAMPLE / "csharp", tmp_path / "cs")
    cs = tmp_path / "cs"
    _edit(cs / CIRCLE_CS, "return center.DistanceTo(other.center) <= radius + other.radius;", "return false; // TODO")
    _edit(cs / CIRCLE_CS, "return 2.0 * Math.PI * radius;", "throw new NotImplementedException();")
    _edit(cs / CIRCLE_CS, "get { return radius; }", "get => throw new System.NotImplementedException();")
    _edit(cs / "tests/Acme.Geo.Tests/Shapes/CircleTests.cs", "circle = new Circle(new Point2D(1, 2), 2);",
          "throw new NotImplementedException();")
    if java_intersects_trivial:
        _edit(tmp_path / "java" / CIRCLE_JAVA, "return center.distanceTo(other.center) <= radius + other.radius;",
              "return false;")
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", cs, progress=False)
    return index


def test_tasks_are_what_a_user_means_by_a_placeholder(tmp_path):
    index = _pair(tmp_path, java_intersects_trivial=False)
    why = {t.split(":", 1)[1]: w for t, (_, w) in task_reasons(index, load_mapping(index)).items()}
    assert why == {"Acme.Geo.Shapes.Circle.Perimeter()": "its body throws NotImplementedException",
                   "Acme.Geo.Shapes.Circle.Radius": "its body throws NotImplementedException",
                   "Acme.Geo.Shapes.Circle.Intersects(Circle)":
                       "its body is a constant return (`return null;`, `false`, `0`) and the Java method does more"}
    plan = plan_batch(index, load_mapping(index)).render()
    assert "    Acme.Geo.Shapes.Circle.Intersects(Circle): its body is a constant return" in plan
    assert "CircleTests" not in plan                       # a test project's member is never a task


def test_a_weak_form_the_java_method_shares_is_a_task_only_when_widened(tmp_path):
    index = _pair(tmp_path, java_intersects_trivial=True)
    intersects = "target:Acme.Geo.Shapes.Circle.Intersects(Circle)"
    assert intersects not in task_reasons(index, load_mapping(index))
    assert task_reasons(index, load_mapping(index), weak=True)[intersects][1] == ("its body is a constant return (`return null;`, "
                                                             "`false`, `0`) ([tasks] weak_placeholders)")


def test_placeholder_forms():
    assert placeholder_form("{ throw new NotImplementedException(\"later\"); }") == "throws"
    assert placeholder_form("=> throw new System.NotImplementedException();") == "throws"
    assert placeholder_form("{ get { throw new NotImplementedException(); } set { x = value; } }") == "accessor throws"
    assert placeholder_form("{ get => throw new NotImplementedException(); }") == "throws"
    assert [placeholder_form(b) for b in ("{ }", "{ return default(T); }", "{ return; }", "{ return null; // TODO\n}")] \
        == ["empty", "default", "return", "literal"]
    assert placeholder_form("{ return x; }") is None and placeholder_form("{ get; set; }") is None


def test_dry_run_keeps_java_signatures_whole_and_lists_everything_with_all():
    assert _member("org.acme.Cal.setCalendarHour(java.util.Calendar, int)") == "setCalendarHour(java.util.Calendar, int)"
    plan = BatchPlan(tasks=[], levels=[], missing_types={f"org.acme.T{i}": "no C# type" for i in range(20)})
    assert "... and 8 more (--all lists them)" in plan.render()
    assert "org.acme.T19" in plan.render(show_all=True) and "more" not in plan.render(show_all=True)
