"""'Translate these first': the untranslated members ranked by how many tasks their placeholder blocks
(directly and through tasks blocked behind blocked tasks), at the end of the batch summary, report.md and
report.html; after the user writes the first one by hand, `batch --resume` judges again exactly the tasks
it blocked."""
from __future__ import annotations

import json
import re
from pathlib import Path

from repotrans.agents.config import load_config
from repotrans.datasets.masking import candidate_tasks, mask_repo
from repotrans.index.store import Index
from repotrans.reports.html import render_page
from repotrans.reports.report import markdown
from repotrans.runs.batch import run_batch
from repotrans.runs.batch_summary import BatchSummary
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.rejudge import WorkCopy, unchanged_blocked, written_since
from repotrans.runs.translate_first import translate_first
from repotrans.runs.write_back import original_texts

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def _rec(task: str, status: str, behind: tuple[str, ...] = ()) -> TaskRecord:
    result = {"status": status, "diagnostics": [], "failures": [], "exceptions": [], "tests_run": 2,
              "tests_failed": 0, "timings": {}, "log_tail": "", "reason": "", "behind": [f"target:{b}" for b in behind]}
    return TaskRecord(config="batch", dataset="port", task_id=task, status=status, code="x", result=result)


# Hub's candidate failed, so its placeholder stays; A and B stop in it; C stops in A (a blocked task);
# D stops in Other(), a placeholder that is no task; E passed.
RECORDS = [_rec("Ns.T.Hub()", "test_failure"), _rec("Ns.T.A()", "blocked", ("Ns.T.Hub()",)),
           _rec("Ns.T.B()", "blocked", ("Ns.T.Hub()",)), _rec("Ns.T.C()", "blocked", ("Ns.T.A()",)),
           _rec("Ns.T.D()", "blocked", ("Ns.T.Other()",)), _rec("Ns.T.E()", "passed")]


def test_members_are_ranked_by_the_tasks_they_block_directly_and_through_blocked_tasks():
    first = translate_first(RECORDS)
    assert [(b.member, b.tasks, b.is_task) for b in first] == [
        ("Ns.T.Hub()", ("Ns.T.A()", "Ns.T.B()", "Ns.T.C()"), True),
        ("Ns.T.Other()", ("Ns.T.D()",), False),           # ties: a member that is not blocked itself first
        ("Ns.T.A()", ("Ns.T.C()",), True)]


def test_a_failed_hub_comes_with_the_placeholders_its_candidate_ran_into():
    """The hub's candidate failed; its own code ran into Leaf(), still a placeholder (the runner's chain goes
    through a candidate frame). Written alone, the hub would only move its blocked tasks behind Leaf (found
    on a real port: every test went through Set(int), whose Java original calls addLiteralWord), so the list
    names Leaf with it, and Spare, a placeholder another task stops in, which its code calls; a chain that does
    not pass through the candidate (the test called Other() itself) names nothing."""
    hub = _rec("Ns.T.Hub()", "runtime_error")
    hub.result["failures"] = [
        {"name": "Ns.Tests.T1", "message": "NotImplementedException", "chains": [{"frames": [
            "Ns.T.Leaf (System.Int64 x) at T.cs:9", "Ns.T.Hub () at T.cs:3 (candidate line 2)", "Ns.Tests.T1 () at Tests.cs:4"]}]},
        {"name": "Ns.Tests.T2", "message": "NotImplementedException", "chains": [{"frames": [
            "Ns.T.Other () at T.cs:20", "Ns.Tests.T2 () at Tests.cs:9"]}]}]
    hub.code = "public void Hub() { if (Spare(1)) Leaf(Written(2)); }"
    # Spare: a placeholder C stops in, which the hub's code calls; Written: a failed task the user has written by
    # hand since (no test stops in it any more), which the hub's code calls too: not named
    records = [hub, _rec("Ns.T.Leaf(long)", "compile_error"), _rec("Ns.T.Spare(int)", "compile_error"),
               _rec("Ns.T.Written(int)", "compile_error"), _rec("Ns.T.A()", "blocked", ("Ns.T.Hub()",)),
               _rec("Ns.T.B()", "blocked", ("Ns.T.Hub()",)), _rec("Ns.T.C()", "blocked", ("Ns.T.Spare(int)",))]
    first = translate_first(records)
    assert [(b.member, b.needs) for b in first] == [("Ns.T.Hub()", ("Ns.T.Leaf(long)", "Ns.T.Spare(int)")),
                                                    ("Ns.T.Spare(int)", ())]
    line = BatchSummary.of(7, records, seconds=1.0).render().split("\n")[-2]
    assert line == ("  Ns.T.Hub() (a task that did not pass), with Ns.T.Leaf(long), Ns.T.Spare(int) (its candidate calls them or "
                    "stops in them: write them with it): blocks 2 tasks: Ns.T.A(), Ns.T.B()")


def test_partial_tasks_behind_a_member_are_named_apart(tmp_path):
    """A partial task's left-out tests stop in ToNode, as a blocked task's do; a resume judges the blocked task
    again once ToNode is written, but keeps the partial verdict (found on xmlunit.net: the list said 'ToNode
    blocks 4 tasks'; after writing it by hand the 2 blocked ones were judged again, the 2 partial ones still
    named ToNode). The line counts them apart."""
    records = [_rec("Ns.C.ToNode()", "compile_error"), _rec("Ns.C.A()", "blocked", ("Ns.C.ToNode()",)),
               _rec("Ns.C.P()", "partial", ("Ns.C.ToNode()",))]
    first = translate_first(records)
    assert [(b.member, b.tasks, b.partial) for b in first] == [("Ns.C.ToNode()", ("Ns.C.A()",), ("Ns.C.P()",))]
    assert BatchSummary.of(3, records, seconds=1.0).render().split("\n")[-1] == (
        "  Ns.C.ToNode() (a task that did not pass): blocks 1 task: Ns.C.A(); 1 partial task left out tests that "
        "stop in it: Ns.C.P()")
    store = RunStore(tmp_path / "run")
    for r in records[:1] + records[2:]:          # the partial one only: the member blocks no task
        store.add(r)
    store.close()
    page = re.sub(r"<[^>]+>", "", render_page(tmp_path / "run"))
    assert "Ns.C.ToNode() (a task that did not pass): blocks no task;\n1 partial task(s) left out tests that stop in " \
           "it:\nNs.C.P()" in page


def test_the_summary_report_md_and_report_html_end_with_the_list(tmp_path):
    text = BatchSummary.of(6, RECORDS, seconds=1.0).render()
    tail = text.split("\n")[-4:]
    assert tail[0].startswith("translate these first")
    assert tail[1] == "  Ns.T.Hub() (a task that did not pass): blocks 3 tasks: Ns.T.A(), Ns.T.B(), Ns.T.C()"
    md = markdown(RECORDS)
    assert md.rstrip().endswith("- `Ns.T.A()` (a task that did not pass): blocks 1 task: `Ns.T.C()`")
    assert "## Translate these first" in md and "- `Ns.T.Hub()` (a task that did not pass): blocks 3 tasks" in md
    store = RunStore(tmp_path / "run")
    for r in RECORDS:
        store.add(r)
    store.close()
    page = render_page(tmp_path / "run")
    assert 'id="first"' in page and "<code>Ns.T.Hub()</code> (a task that did not pass): blocks 3 task(s)" in page


def _declaration(text: str, head: str) -> str:
    """A declaration as written in `text`, from `head` to the end of its body (which holds no braces)."""
    start = text.index(head)
    return text[start:text.index("}", text.index("{", start)) + 1]


def _verdicts(run: Path, task_dir: str) -> int:
    return len(json.loads((run / "tasks" / task_dir / "result.json").read_text()).get("verdicts", [1]))


def _waiting(java: Path, target: Path, workdir: Path, run: Path) -> set[str]:
    """The blocked tasks a resume would leave alone (their blockers are all still placeholders)."""
    index = Index.open(workdir)
    index.build(java, target, progress=False)
    store = RunStore(run)
    try:
        return set(unchanged_blocked(WorkCopy(index, java, target), store.records()))
    finally:
        store.close()
        index.close()


def test_resume_after_writing_the_first_member_judges_exactly_the_tasks_it_blocked(tmp_path):
    """Circle's constructor and GeometryMath.AlmostEqual are placeholders but no task (--functions lists Area
    and IsSquare only): IsSquare's tests stop in AlmostEqual, Area's in both (and in IsSquare). AlmostEqual comes first; the user
    writes it back by hand, and --resume judges IsSquare again (it passes), then Area, once IsSquare's pass
    changed the work copy."""
    ctor, almost = "Acme.Geo.Shapes.Circle.<init>(Point2D, double)", "Acme.Geo.GeometryMath.AlmostEqual(double, double)"
    area, square = "Acme.Geo.Shapes.Circle.Area()", "Acme.Geo.Shapes.Rectangle.IsSquare"
    index = Index.open(tmp_path / "mask-index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    target = tmp_path / "target"
    mask_repo(index, candidate_tasks(index, [ctor, almost, area, square]), target)
    functions = tmp_path / "functions.txt"
    functions.write_text(f"{area}\n{square}\n")
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n")
    config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "builtin"}})
    run = tmp_path / "run"
    summary = run_batch(SAMPLE / "java", target, run, config, functions=functions, progress=False)
    assert summary.blocked == 2
    assert [(b["member"], b["tasks"]) for b in summary.first] == [(almost, [area, square]), (ctor, [area]),
                                                                  (square, [area])]   # a blocked task: last
    assert _waiting(SAMPLE / "java", target, tmp_path / "before", run) == {area, square}
    math = target / "src" / "Acme.Geo" / "GeometryMath.cs"
    head = "public static bool AlmostEqual(double a, double b)"
    original = _declaration((SAMPLE / "csharp" / "src" / "Acme.Geo" / "GeometryMath.cs").read_text(), head)
    math.write_text(original.join(math.read_text().split(_declaration(math.read_text(), head))))   # by hand
    # IsSquare is judged again at once; Area (behind IsSquare and the constructor) once IsSquare passes
    assert _waiting(SAMPLE / "java", target, tmp_path / "after", run) == {area}
    resumed = run_batch(SAMPLE / "java", target, run, config, functions=functions, resume=True, progress=False)
    # Area passes only on the covering tests that could run past the constructor, which stays a placeholder (no
    # task): partial, not a pass (47b00ed), and the constructor is what to translate first for it
    assert (resumed.passed, resumed.partial, resumed.blocked) == (1, 1, 0)
    assert [(b["member"], b["tasks"], b["partial"]) for b in resumed.first] == [(ctor, [], [area])]
    assert _verdicts(run, "Acme.Geo.Shapes.Circle.Area_") > 1
    # the user writes the constructor the list names: Area's partial verdict rested on its placeholder, so the
    # next resume judges Area again, now on every covering test (was: the partial verdict was kept, and the
    # list kept naming a member that was written)
    shapes = target / "src" / "Acme.Geo" / "Shapes" / "Circle.cs"
    head = "public Circle(Point2D center, double radius)"
    original = _declaration((SAMPLE / "csharp" / "src" / "Acme.Geo" / "Shapes" / "Circle.cs").read_text(), head)
    shapes.write_text(original.join(shapes.read_text().split(_declaration(shapes.read_text(), head))))
    again = run_batch(SAMPLE / "java", target, run, config, functions=functions, resume=True, progress=False)
    assert (again.tasks, again.passed, again.partial, again.blocked, again.first) == (2, 2, 0, 0, [])


def test_a_task_written_by_hand_since_the_run_is_no_task_of_the_resumed_run(tmp_path):
    """After a batch, the user writes one failed task's member by hand and leaves another as it was; a resume
    no longer counts the written one as a failure of the run nor lists it to translate first: its record is
    set aside (kept in the run's meta with the verdict it had), the summary names it. A member still a
    placeholder, one whose placeholder text alone changed, and a passing one the run wrote stay tasks."""
    area, scale, square = ("Acme.Geo.Shapes.Circle.Area()", "Acme.Geo.Shapes.Circle.Scale(double)",
                           "Acme.Geo.Shapes.Rectangle.IsSquare")
    index = Index.open(tmp_path / "index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    target = tmp_path / "target"
    mask_repo(index, candidate_tasks(index, [area, scale, square]), target)
    index.build(SAMPLE / "java", target, progress=False)
    originals = original_texts(index, [area, scale, square])
    circle = target / "src" / "Acme.Geo" / "Shapes" / "Circle.cs"
    text = circle.read_text()
    written = _declaration((SAMPLE / "csharp" / "src" / "Acme.Geo" / "Shapes" / "Circle.cs").read_text(),
                           "public override double Area()")
    text = written.join(text.split(_declaration(text, "public override double Area()")))
    circle.write_text(text.replace("NotImplementedException()", 'NotImplementedException("later")', 1))
    index.build(SAMPLE / "java", target, progress=False)
    records = {area: _rec(area, "test_failure"), square: _rec(square, "passed")}
    try:
        assert written_since(index, originals, records, [area, scale, square]) == [area]
    finally:
        index.close()
    store = RunStore(tmp_path / "run")
    for r in (_rec(area, "test_failure"), _rec(scale, "blocked", (area,)), _rec(square, "passed")):
        store.add(r)
    store.set_aside([area], "written in the port since the run planned it")
    assert sorted(r.task_id for r in store.records()) == [scale, square]
    assert store.meta("set_aside") == {area: {"status": "test_failure",
                                              "why": "written in the port since the run planned it"}}
    store.set_aside([area], "written in the port since the run planned it")     # a later resume: kept as it was
    assert store.meta("set_aside")[area]["status"] == "test_failure"
    store.set_aside([], "written in the port since the run planned it")         # a placeholder again: a task again
    assert store.meta("set_aside") == {}
    store.close()
    summary = BatchSummary.of(2, [_rec(scale, "blocked", (area,)), _rec(square, "passed")], seconds=1.0,
                              written_since=[area])
    assert (summary.tasks, summary.failed, summary.blocked) == (2, 0, 1)
    assert ("written in the port since the run planned them (no longer its tasks, not counted): 1: "
            f"{area}") in summary.render()


def test_the_whole_suite_line_and_the_list_name_the_same_placeholder(tmp_path):
    """The stranger fixture's IsFull is a placeholder but no task; Take's tests stop in it. The whole-suite line
    puts the failures down to IsFull, where the runner saw them stop, as the list does (was: to Take, the task
    left untranslated)."""
    import shutil

    pair = tmp_path / "pair"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair", pair)
    functions = tmp_path / "functions.txt"
    functions.write_text("Example.Ring.RingBuffer.Take()\nExample.Ring.Counter.See(int)\n")
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n")
    config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "builtin"}})
    summary = run_batch(pair / "java", pair / "csharp", tmp_path / "run", config, functions=functions, progress=False)
    assert (summary.passed, summary.blocked) == (1, 1)
    assert summary.together["untranslated"] == ["Example.Ring.RingBuffer.IsFull()"]
    assert [(b["member"], b["tasks"]) for b in summary.first] == [("Example.Ring.RingBuffer.IsFull()",
                                                                   ["Example.Ring.RingBuffer.Take()"])]
