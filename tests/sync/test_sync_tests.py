"""`sync --junit` carries test methods added upstream to a JUnit class the port already has into the port's
test class (sync_tests): a nested fixture labelled as translated, in the port's own file; real mono build
and the port's NUnit tests on the bundled history's v1 with a JUnit class added on both sides."""
from __future__ import annotations

import json
import subprocess

import pytest

from repotrans.cli.main import main
from repotrans.sync.history import export
from repotrans.sync.upstream_tests import added_tests

from .conftest import SAMPLE

TEST = """package org.acme.geometry;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class Vector2DTest {
%s
    @Test
    public void componentsAreExposed() {
        Vector2D v = new Vector2D(3, 4);
        assertEquals(3.0, v.getX(), 0.0);
    }

    private static Vector2D unit() {
        return new Vector2D(1, 0);
    }
}
"""
ADDED = """
    @Test
    public void addIsComponentWise() {
        Vector2D sum = new Vector2D(1, 2).add(new Vector2D(3, 4));
        assertEquals(4.0, sum.getX(), 1e-12);
        assertEquals(6.0, sum.getY(), 1e-12);
    }

    @Test
    public void dotOfPerpendicularIsZero() {
        assertEquals(0.0, new Vector2D(0, 1).dot(unit()), 1e-12);
    }
"""


def _trees(tmp_path, history):
    rel = "src/test/java/org/acme/geometry/Vector2DTest.java"
    before = export(history, "v1", tmp_path / "before")
    after = export(history, "v1", tmp_path / "after")
    for root, added in ((before, ""), (after, ADDED)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(TEST % added, encoding="utf-8")
    return before, after


def test_added_test_methods_of_existing_junit_classes(tmp_path, history):
    before, after = _trees(tmp_path, history)
    (after / "src/test/java/org/acme/geometry/NewTest.java").write_text(TEST.replace("Vector2DTest", "NewTest") % ADDED)
    assert added_tests(before / "src/test/java", after / "src/test/java") == {
        "org/acme/geometry/Vector2DTest.java": ["addIsComponentWise", "dotOfPerpendicularIsZero"]}


@pytest.mark.slow
def test_tests_added_upstream_land_in_the_ports_test_class_labelled(tmp_path, history):
    before, after = _trees(tmp_path, history)
    run = tmp_path / "run"
    code = main(["--workdir", str(tmp_path / "wd"), "sync", "--source-before", str(before), "--source", str(after),
                 "--target", str(SAMPLE / "csharp"), "--run-dir", str(run), "--junit", "src/test/java",
                 "--model", "builtin", "--quiet"])
    report = json.loads((run / "sync.json").read_text())
    assert [(o["action"], o["change"]["new_id"], o["status"], o["judged_by"]) for o in report["outcomes"]] == [
        ("add test", "source:org.acme.geometry.Vector2DTest.addIsComponentWise()", "passed", "translated tests"),
        ("add test", "source:org.acme.geometry.Vector2DTest.dotOfPerpendicularIsZero()", "passed",
         "translated tests")]
    assert code == 0
    text = (run / "work" / "target" / "tests/Acme.Geo.Tests/Vector2DTests.cs").read_text()
    nested = text.split("public class RepotransTranslated", 1)[1]
    assert '[Category("RepotransTranslated")]' in text.split("public class RepotransTranslated", 1)[0][-200:]
    assert "public void AddIsComponentWise()" in nested and "public void DotOfPerpendicularIsZero()" in nested
    assert "ComponentsAreExposed" not in nested          # the port's own test stays as it was, once
    assert report["whole_suite"]["status"] == "passed"
    patch = (run / "changes.patch").read_text()
    assert [line.split(" b/", 1)[1] for line in patch.splitlines() if line.startswith("diff --git ")] == [
        "tests/Acme.Geo.Tests/Vector2DTests.cs"]
    repo = tmp_path / "port"
    subprocess.run(["cp", "-r", str(SAMPLE / "csharp"), str(repo)], check=True)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "apply", "--check", str(run / "changes.patch")], cwd=repo, check=True)
    # a port that has them already (by hand, or this sync written): nothing is added again
    again = tmp_path / "again"
    code = main(["--workdir", str(tmp_path / "wd2"), "sync", "--source-before", str(before), "--source", str(after),
                 "--target", str(run / "work" / "target"), "--run-dir", str(again), "--junit", "src/test/java",
                 "--model", "builtin", "--quiet"])
    report = json.loads((again / "sync.json").read_text())
    assert code == 0 and [(o["action"], o["status"]) for o in report["outcomes"]] == [("add test", "nothing to do")] * 2
    assert (again / "changes.patch").read_text() == ""


def test_added_and_removed_test_methods_are_attributed_to_the_commit_that_made_them(tmp_path):
    """Test methods added (removed) upstream go under the upstream commit that added (removed) them, not
    under '(no commit named)'."""
    from repotrans.sync.history import commits
    from repotrans.sync.upstream_tests import commits_adding, removed_tests

    repo = tmp_path / "up"
    rel = "src/test/java/org/acme/geometry/Vector2DTest.java"
    (repo / rel).parent.mkdir(parents=True)

    def commit(text: str, message: str) -> None:
        (repo / rel).write_text(text, encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], cwd=repo,
                       check=True)

    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    commit(TEST % "", "v1")
    first, second = ADDED.split("\n    @Test\n    public void dotOf")
    commit(TEST % first, "add addIsComponentWise")
    commit((TEST % (first + "\n    @Test\n    public void dotOf" + second)).replace(
        "    @Test\n    public void componentsAreExposed", "    public void componentsAreExposed"), "add dot, drop one")
    history = commits(repo, "HEAD~2", "HEAD")
    assert [c.subject for c in history] == ["add addIsComponentWise", "add dot, drop one"]
    names = ["addIsComponentWise", "dotOfPerpendicularIsZero"]
    assert commits_adding(repo, history, rel, names) == {
        "addIsComponentWise": (history[0].short,), "dotOfPerpendicularIsZero": (history[1].short,)}
    assert commits_adding(repo, history, rel, ["componentsAreExposed"], added=False) == {
        "componentsAreExposed": (history[1].short,)}
    old, new = tmp_path / "old", tmp_path / "new"
    for root, rev in ((old, "HEAD~2"), (new, "HEAD")):
        (root / "org/acme/geometry").mkdir(parents=True)
        data = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=repo, capture_output=True, check=True).stdout
        (root / "org/acme/geometry/Vector2DTest.java").write_bytes(data)
    assert removed_tests(old, new) == {"org/acme/geometry/Vector2DTest.java": ["componentsAreExposed"]}


CHANGED = TEST.replace("assertEquals(3.0, v.getX(), 0.0);", "assertEquals(3.0, v.getX(), 0.0);\n"
                       "        assertEquals(4.0, v.getY(), 0.0);")


def test_test_methods_changed_upstream_are_found_and_attributed(tmp_path):
    """A test both revisions have whose text changed (not its spacing or comments) is a changed test, under
    the commit that changed it (was: only added and removed tests were seen; a changed one kept the port's
    old translation)."""
    from repotrans.sync.history import commits
    from repotrans.sync.upstream_tests import changed_tests, class_test_texts, commits_adding

    old, new = tmp_path / "old" / "p", tmp_path / "new" / "p"
    for root, text in ((old, TEST % ""), (new, CHANGED % "")):
        root.mkdir(parents=True)
        (root / "Vector2DTest.java").write_text(text, encoding="utf-8")
        (root / "SameTest.java").write_text((TEST % "").replace("Vector2DTest", "SameTest"), encoding="utf-8")
    (new / "SameTest.java").write_text((TEST % "").replace("Vector2DTest", "SameTest").replace(
        "Vector2D v =", "// a comment\n        Vector2D   v ="), encoding="utf-8")
    assert changed_tests(old.parent, new.parent) == {"p/Vector2DTest.java": ["componentsAreExposed"]}
    repo = tmp_path / "up"
    rel = "src/test/java/p/Vector2DTest.java"
    (repo / rel).parent.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    for text, message in ((TEST % "", "v1"), (TEST % ADDED, "add two"), (CHANGED % ADDED, "check y")):
        (repo / rel).write_text(text, encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], cwd=repo,
                       check=True)
    history = commits(repo, "HEAD~2", "HEAD")
    before = class_test_texts((TEST % "").encode())[1]
    assert commits_adding(repo, history, rel, ["componentsAreExposed"], before=before) == {
        "componentsAreExposed": (history[1].short,)}


@pytest.mark.slow
def test_a_test_changed_upstream_runs_beside_the_ports_own(tmp_path, history):
    """The changed JUnit test is translated into the nested translated fixture; the port's own test is
    left as it is and the report says it still follows the old JUnit test."""
    before, after = _trees(tmp_path, history)
    rel = "src/test/java/org/acme/geometry/Vector2DTest.java"
    (after / rel).write_text(CHANGED % "", encoding="utf-8")
    run = tmp_path / "run"
    code = main(["--workdir", str(tmp_path / "wd"), "sync", "--source-before", str(before), "--source", str(after),
                 "--target", str(SAMPLE / "csharp"), "--run-dir", str(run), "--junit", "src/test/java",
                 "--model", "builtin", "--quiet"])
    report = json.loads((run / "sync.json").read_text())
    assert [(o["action"], o["change"]["new_id"], o["status"]) for o in report["outcomes"]] == [
        ("change test", "source:org.acme.geometry.Vector2DTest.componentsAreExposed()", "passed")]
    assert "still follows the old JUnit test" in report["outcomes"][0]["reason"]
    assert code == 0 and report["whole_suite"]["status"] == "passed"
    port = (SAMPLE / "csharp" / "tests/Acme.Geo.Tests/Vector2DTests.cs").read_text()
    text = (run / "work" / "target" / "tests/Acme.Geo.Tests/Vector2DTests.cs").read_text()
    outside, nested = text.split("public class RepotransTranslated", 1)
    assert "ComponentsAreExposed()" in nested and "v.Y" in nested
    assert outside.count("ComponentsAreExposed()") == port.count("ComponentsAreExposed()")
