"""Placeholders that call each other (issue 35): IsEven and IsOdd are masked and each one's tests stop in
the other's placeholder, so neither can pass alone; they are one strongly connected group of the call
graph and are judged together as soon as their level ends, each verdict recorded. Real batch (builtin
policy, mcs, NUnit) on a copy of the sample with the two methods added to both sides."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repotrans.agents.config import load_config
from repotrans.runs.batch import run_batch

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
JAVA = """
    public static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    public static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    /** True for null, empty, or whitespace-only text. */"""
CS = """
        public static bool IsEven(int n)
        {
            throw new NotImplementedException();
        }

        public static bool IsOdd(int n)
        {
            throw new NotImplementedException();
        }

        /// <summary>True for null, empty, or whitespace-only text.</summary>"""
TESTS = """
        [Test]
        public void EvenAndOdd()
        {
            Assert.IsTrue(StringUtils.IsEven(4));
            Assert.IsTrue(StringUtils.IsOdd(3));
            Assert.IsFalse(StringUtils.IsEven(3));
        }

        [Test]
        public void IsBlankDetectsWhitespaceOnly()"""


def _insert(path: Path, anchor: str, text: str) -> None:
    data = path.read_text()
    assert anchor in data
    path.write_text(data.replace(anchor, text, 1))


def test_placeholders_that_call_each_other_are_judged_together(tmp_path, capsys):
    java, cs = tmp_path / "java", tmp_path / "cs"
    shutil.copytree(SAMPLE / "java", java)
    shutil.copytree(SAMPLE / "csharp", cs)
    _insert(java / "src/main/java/org/acme/util/StringUtils.java",
            "\n    /** True for null, empty, or whitespace-only text. */", JAVA)
    _insert(cs / "src/Acme.Geo/Common/StringUtils.cs",
            "\n        /// <summary>True for null, empty, or whitespace-only text.</summary>", CS)
    _insert(cs / "tests/Acme.Geo.Tests/Common/StringUtilsTests.cs",
            "\n        [Test]\n        public void IsBlankDetectsWhitespaceOnly()", TESTS)
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n[execution]\nsandbox = \"local\"\n")
    config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "builtin"}})
    summary = run_batch(java, cs, tmp_path / "run", config, progress=False, write=True)
    assert (summary.tasks, summary.passed, summary.blocked) == (2, 2, 0)
    err = capsys.readouterr().err
    assert "judging 2 placeholders that call each other together" in err      # at the end of their level,
    assert "re-judging" not in err                                              # not left for the end
    for task in ("Acme.Common.StringUtils.IsEven(int)", "Acme.Common.StringUtils.IsOdd(int)"):
        folder = next((tmp_path / "run" / "tasks").glob(task.split("(")[0].replace(".", "?") + "*"))
        saved = json.loads((folder / "result.json").read_text())
        assert saved["status"] == "passed" and "passed together with" in saved["result"]["reason"]
        assert [v["status"] for v in saved["verdicts"]] == ["blocked", "passed"]
    assert "n == 0 || IsOdd(n - 1)" in (cs / "src/Acme.Geo/Common/StringUtils.cs").read_text()
