"""report.html answers first: the summary block (counts, rates, whole suite, plots), failures grouped by
cause with their first real assertion or compiler error, per class; checked in headless Chromium."""
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib.image
import pytest

from repotrans.runs.causes import cause_of
from repotrans.reports.report import write_report
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.whole_suite import whole_suite_line

NOT_IMPL = "System.NotImplementedException : The method or operation is not implemented."


def _failure(name, message, expected=None, actual=None, stack=(), chains=()):
    """A failure; `chains`: the runner's record of the call chains that reached a placeholder's guard."""
    return {"name": name, "message": message, "expected": expected, "actual": actual, "stack": list(stack),
            "chains": [{"frames": list(c), "complete": True} for c in chains]}


def _result(status, failures=(), diagnostics=(), reason="", tests_run=3, behind=()):
    return {"status": status, "diagnostics": list(diagnostics), "failures": list(failures), "exceptions": [],
            "tests_run": tests_run, "tests_failed": len(failures), "timings": {}, "log_tail": "", "reason": reason,
            "behind": list(behind)}


# A runtime error whose reason counts placeholder throws; the real bug is the assertion below them.
JOIN = TaskRecord(config="batch", dataset="target", task_id="Acme.Common.StringUtils.Join(string, IEnumerable)",
                  status="runtime_error", seconds=3.8, prompt_tokens=8000, completion_tokens=656, code="return x;",
                  result=_result("runtime_error", reason="2 test(s) threw System.NotImplementedException", failures=[
                      _failure("Acme.Tests.PolygonTests.VerticesAreKeptInOrder", NOT_IMPL,
                               stack=["Acme.Geo.Point2D.ToString () at src/Point2D.cs:127"],
                               chains=[["Acme.Geo.Point2D.ToString () at src/Point2D.cs:127"]]),
                      _failure("Acme.Tests.StringUtilsTests.JoinWritesNull",
                               'Expected string length 15 but was 11.\n  Expected: "1, null, x"\n  But was: "1, , x"',
                               expected='"1, null, x"', actual='"1, , x"')]))
FORMAT = TaskRecord(config="batch", dataset="target", task_id="Acme.Common.StringUtils.Format(double)",
                    status="compile_error", seconds=82.7, code="BigDecimal d;", result=_result(
                        "compile_error", reason="3 error(s) compiling Acme.Geo", tests_run=0, diagnostics=[
                            {"code": "CS0246", "message": "The type `BigDecimal' could not be found",
                             "file": "src/StringUtils.cs", "line": 44, "column": 5, "candidate_line": 8,
                             "severity": "error"}]))
DOT = TaskRecord(config="batch", dataset="target", task_id="Acme.Geo.Vector2D.Dot(Vector2D)", status="blocked",
                 code="return X * o.X;", result=_result("test_failure", failures=[_failure(
                     "Acme.Tests.Vector2DTests.DotAndCross",
                     "SetUp : System.TypeInitializationException : The type initializer for 'Acme.Geo.Vector2D' "
                     "threw an exception.\n  ----> System.NotImplementedException :",
                     stack=["Acme.Tests.Vector2DTests.SetUp () at tests/Vector2DTests.cs:13"])],
                     behind=["target:Acme.Geo.Vector2D.Vector2D(double, double)"]))
AREA = TaskRecord(config="batch", dataset="target", task_id="Acme.Geo.Circle.Area()", status="blocked",
                  code="return 1;", result=_result("test_failure", failures=[_failure(
                      "Acme.Tests.CircleTests.Area", "SetUp : " + NOT_IMPL,
                      stack=["Acme.Geo.AbstractShape..ctor (System.String name) at src/AbstractShape.cs:13"])],
                      behind=["target:Acme.Geo.AbstractShape.AbstractShape(string)"]))
PASSED = [TaskRecord(config="batch", dataset="target", task_id=f"Acme.Geo.Vector2D.M{i}()", status="passed",
                     code="return 0;", seconds=1.0, prompt_tokens=100, result=_result("passed")) for i in range(5)]
GONE = TaskRecord(config="batch", dataset="target", task_id="Acme.Geo.Circle.Scale(double)", status="error",
                  error="model server error at http://localhost:9/v1 (model m): connection refused")


def test_a_failure_opens_with_its_first_real_assertion_not_the_placeholder_throws():
    cause = cause_of(JOIN)
    assert cause.group == "assertion failed"
    assert cause.line == 'JoinWritesNull: expected "1, null, x", actual "1, , x"'


def test_a_compile_error_opens_with_the_compiler_message_at_the_candidate_line():
    assert cause_of(FORMAT).line == "CS0246 at candidate line 8: The type `BigDecimal' could not be found"
    assert cause_of(FORMAT).group == "compilation error CS0246"


def test_blocked_names_the_members_the_runners_record_names():
    """The members a blocked verdict rests on (`behind`, from the runner's record of the call chain), never
    read from the failures' messages or stacks."""
    assert cause_of(DOT).line == ("1 covering test(s) stop in untranslated code: "
                                  "Acme.Geo.Vector2D.Vector2D(double, double)")
    assert cause_of(AREA).line == "1 covering test(s) stop in untranslated code: Acme.Geo.AbstractShape.AbstractShape(string)"


@pytest.mark.parametrize("together, line", [
    ({"status": "passed", "tests_run": 214, "tests_failed": 0}, "whole suite with translations: 214/214 pass"),
    ({"status": "runtime_error", "tests_run": 214, "tests_failed": 22, "in_untranslated": 22,
      "untranslated": ["A.B.C()", "A.B.D()"], "elsewhere": []},
     "whole suite with translations: 192/214 pass; the 22 failures are all in the 2 untranslated methods "
     "(A.B.C(), A.B.D())"),
    ({"status": "test_failure", "tests_run": 10, "tests_failed": 3, "in_untranslated": 1, "untranslated": ["X.Y"],
      "elsewhere": ["T.One: boom"]},
     "whole suite with translations: 7/10 pass; 1 of the 3 failures are in untranslated methods (X.Y), "
     "2 elsewhere (first: T.One: boom)"),
    ({"status": "compile_error", "tests_run": 0, "tests_failed": 0, "first": "CS0103 at a.cs:3: no x"},
     "whole suite with translations: does not build (CS0103 at a.cs:3: no x)"),
    ({}, "whole suite: not run (no translation passed)"),
])
def test_the_whole_suite_line_is_worded_by_what_it_found(together, line):
    assert whole_suite_line(together) == line


@pytest.fixture
def batch_run(tmp_path) -> Path:
    """A batch run folder with one configuration (the offline policy) and its whole-suite check."""
    run = tmp_path / "batch"
    store = RunStore(run)
    for rec in [JOIN, FORMAT, DOT, AREA, GONE, *PASSED]:
        store.add(rec)
    store.set_meta("config", {"model": {"name": "builtin"}})
    store.close()
    (run / "summary.json").write_text(json.dumps({"together": {
        "status": "runtime_error", "tests_run": 214, "tests_failed": 22, "in_untranslated": 22,
        "untranslated": ["Acme.Geo.Vector2D (static initializer)", "Acme.Geo.AbstractShape..ctor"],
        "elsewhere": [], "fail_together": []}}))
    return run


def test_one_configuration_gets_outcome_and_per_class_plots_without_warnings(batch_run):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        md = write_report([batch_run]).read_text()
    assert md.endswith("![status](status.png)\n\n![classes](classes.png)\n")
    assert "Overlap" not in md and not (batch_run / "overlap.png").exists()
    for name in ("status.png", "classes.png"):
        assert matplotlib.image.imread(batch_run / name).std() > 0.01
    cli = subprocess.run([sys.executable, "-m", "repotrans.cli", "report", str(batch_run)], capture_output=True,
                         text=True, timeout=300)
    assert cli.returncode == 0 and cli.stderr == ""


def test_the_page_starts_with_the_answer(batch_run):
    write_report([batch_run])
    page = (batch_run / "report.html").read_text()
    summary = page[page.index('<section id="summary">'):page.index("</section>")]
    assert "5 of 10 tasks pass</span>\n (50.0%); 8 compile (80.0%)" in summary
    assert "failed 2</span>" in summary and "blocked 2</span>" in summary and "task errors 1</span>" in summary
    assert ("whole suite with translations: 192/214 pass; the 22 failures are all in the 2 untranslated methods "
            "(Acme.Geo.Vector2D (static initializer), Acme.Geo.AbstractShape..ctor)") in summary
    assert "(estimated: the offline builtin policy counts words, not tokens)" in summary
    assert summary.count('<img alt="') == 2 and summary.count("data:image/png;base64,") == 2
    causes = [line.split(">", 1)[1].split("<", 1)[0] for line in page.splitlines() if '<h3 class="cause">' in line]
    assert causes == ["assertion failed (1)", "compilation error CS0246 (1)", "task error (model server error) (1)", "blocked by untranslated methods (2)"]
    join = page[page.index("Acme.Common.StringUtils.Join"):]
    assert join.index('JoinWritesNull: expected &#34;1, null, x&#34;, actual &#34;1, , x&#34;') \
        < join.index("NotImplementedException")
    assert "3.8 s, 8656 tokens (estimated)" in join
    assert "Diff against the ground truth" not in page          # a batch has no ground truth
    classes = page[page.index('id="classes"'):page.index('id="passed"')]
    assert "<td>Acme.Geo.Vector2D</td><td>6</td>\n<td>5</td><td>0</td><td>0</td>\n<td>1</td><td>0</td>" in classes


@pytest.mark.slow
def test_headless_chromium_shows_the_summary_block_at_the_top(batch_run, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("chromium is not installed (scripts/install.sh installs it)")
    write_report([batch_run])
    url = (batch_run / "report.html").as_uri()
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(flags + ["--virtual-time-budget=2000", "--dump-dom", url], capture_output=True, text=True,
                         timeout=120).stdout
    assert '<section id="summary">' in dom and "5 of 10 tasks pass" in dom
    assert '<span id="n">10 tasks</span>' in dom                 # the page's script ran
    shot = tmp_path / "top.png"
    subprocess.run(flags + [f"--screenshot={shot}", url], capture_output=True, timeout=120, check=True)
    pixels = matplotlib.image.imread(shot)[:, :, :3]
    assert pixels.shape[:2] == (900, 1280)
    # the summary block's background (#e8f0fe) fills a large part of the first screen ...
    summary_bg = (abs(pixels[:, :, 0] - 232 / 255) < 0.01) & (abs(pixels[:, :, 1] - 240 / 255) < 0.01) \
        & (abs(pixels[:, :, 2] - 254 / 255) < 0.01)
    rows = summary_bg.any(axis=1).nonzero()[0]
    assert summary_bg.sum() > 0.15 * 1280 * 900 and rows.min() < 150
    # ... and holds the plots: the green of passed bars (#2e7d32) is drawn inside it
    green = (abs(pixels[:, :, 0] - 0x2e / 255) < 0.02) & (abs(pixels[:, :, 1] - 0x7d / 255) < 0.02) \
        & (abs(pixels[:, :, 2] - 0x32 / 255) < 0.02)
    assert green[rows.min():rows.max()].sum() > 500


def test_a_failed_task_whose_tests_reach_a_placeholder_through_it_is_worded_as_its_own():
    """Not blocked (the candidate led its tests into the placeholder, which its Java original does not reach):
    the line says so, never "stop in untranslated code", the blocked wording."""
    rec = TaskRecord(config="batch", dataset="target", task_id="Acme.Geo.Vector2D.ToString()", status="runtime_error",
                     code="return Fmt(X);", result=_result("runtime_error", failures=[_failure(
                         "Acme.Tests.Vector2DTests.ToStringUsesAngleBrackets", NOT_IMPL,
                         chains=[["Acme.Geo.Vector2D.Fmt (System.Double x) at src/Vector2D.cs:95",
                                  "Acme.Geo.Vector2D.ToString () at src/Vector2D.cs:89 (candidate line 3)"]])]))
    cause = cause_of(rec)
    assert cause.group == "leads into untranslated methods"
    assert cause.line == ("1 test(s) reach untranslated code through the candidate itself (its Java original does "
                          "not): Acme.Geo.Vector2D.Fmt")
