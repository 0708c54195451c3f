"""A candidate whose tests stop only in a placeholder the batch leaves untranslated (issue 28's sample check
found it: one failed task kept 26 of the sample's 32 blocked). IsBlank and FormatNumber are masked; the
builtin's FormatNumber does not compile (BigDecimal), so its placeholder stays; IsBlank's covering shape
tests print a point through FormatNumber and stop there. At the batch's end IsBlank is judged on the tests
that could run: `partial` (never passed), the stopped ones named as left out, and FormatNumber's record names
it as resting on its failure (holds_up); FormatNumber stays failed. Real batch (builtin policy, mcs, NUnit,
local sandbox)."""
from __future__ import annotations

import json

import pytest

from repotrans.agents.config import load_config
from repotrans.runs.batch import run_batch
from tests.support.sample_masking import masked_sample

pytestmark = pytest.mark.slow
IS_BLANK, FORMAT = "Acme.Common.StringUtils.IsBlank(string)", "Acme.Common.StringUtils.FormatNumber(double, int)"


def test_a_candidate_blocked_only_behind_a_placeholder_that_stays_is_judged_on_the_tests_that_could_run(tmp_path):
    java, cs = masked_sample(tmp_path, IS_BLANK, FORMAT)
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n[execution]\nsandbox = \"local\"\n")
    config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "builtin"}})
    summary = run_batch(java, cs, tmp_path / "run", config, progress=False)
    assert (summary.tasks, summary.passed, summary.partial, summary.failed, summary.blocked) == (2, 0, 1, 1, 0)
    folder = next((tmp_path / "run" / "tasks").glob("Acme.Common.StringUtils.IsBlank*"))
    saved = json.loads((folder / "result.json").read_text())
    assert [v["status"] for v in saved["verdicts"]] == ["blocked", "partial"]
    result = saved["result"]
    assert result["reason"].startswith("passed on the ") and "left out" in result["reason"]
    assert result["left_out"] and all(cause == f"stops in {FORMAT}, which this run leaves untranslated"
                                       for cause in result["left_out"].values())
    assert result["failures"] == [] and result["tests_run"] > 0
    assert result["behind"] == ["target:" + FORMAT]
    other = next((tmp_path / "run" / "tasks").glob("Acme.Common.StringUtils.FormatNumber*"))
    assert json.loads((other / "result.json").read_text())["result"]["holds_up"] == [IS_BLANK]


def test_only_a_test_that_names_the_member_as_a_word_speaks_for_it(tmp_path):
    """past_placeholders: a test that ran to the end counts only when its body names the member (here the
    property X) among its identifiers; `Xor`, a comment and a string do not name X, `v.X` does."""
    from repotrans.verdicts.results import TestFailure, TestResult
    from repotrans.runs.rejudge import past_placeholders
    from tests.support.indexes import csharp_index
    index = csharp_index(tmp_path, {"V.cs": """namespace G {
    public class V { public int X { get { return 1; } } public int Y() { throw new System.NotImplementedException(); } }
    public class VTests {
        public void Names() { var v = new V(); System.Console.WriteLine(v.X); }
        public void Other() { var Xor = 3; System.Console.WriteLine(Xor); }
        public void Stops() { new V().Y(); }
        public void Says() { System.Console.WriteLine("X"); } // X
    }
}
"""})
    x = next(m for m in index.all_methods("target") if m.name == "X")
    y = next(m for m in index.all_methods("target") if m.name == "Y")
    stopped = TestFailure("G.VTests.Stops", "System.NotImplementedException", stack=["G.V.Y () at V.cs:2"])

    def blocked(*passing: str) -> TestResult:
        return TestResult(status="blocked", failures=[stopped], tests_run=1 + len(passing), tests_failed=1,
                          behind=[y.id], selected=[f"p:G.VTests.{t}" for t in (*passing, "Stops")])
    assert past_placeholders(index, x, blocked("Names"), {y.id}).status == "partial"
    assert past_placeholders(index, x, blocked("Other"), {y.id}).status == "blocked"
    assert past_placeholders(index, x, blocked("Says"), {y.id}).status == "blocked"
