"""The untouched port's baseline names every test failing before any change with its cause (fixture written for
this test, compiled by mcs and run by repotrans's NUnit runner for real): on a masked port, a test that fails
because it reaches a placeholder is "blocked by untranslated code", never "environment" nor "the test's own
code" (the scheduler port's doctor filed two such tests under the test's own code), and it is never left out
of a verdict: the candidate may be what it waits for. doctor lists every failing test with its cause, once."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.judge.untouched import known_failures
from repotrans.execution.settings import ExecutionConfig
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

CRON = """using System;
namespace Acme {
  public static class Fields { public static string[] Split(string s) { %s } }
  public static class Cron {
    public static int Count(string s) { return Fields.Split(s).Length; }
    public static int Parse(string s) {
      try { return Fields.Split(s).Length; }
      catch (Exception e) { throw new FormatException("bad expression: " + e.Message); } }   // message only
  } }"""
FILES = core_and_tests(
    {"Cron.cs": CRON},
    {"CronTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CronTests {
    [Test] public void Counts() { Assert.AreEqual(3, Cron.Count("* * *")); }
    [Test] public void Parses() { Assert.AreEqual(2, Cron.Parse("* *")); }
    [Test] public void Zone() { System.TimeZoneInfo.FindSystemTimeZoneById("Mars/Olympus_Mons"); }
    [Test] public void Wrong() { Assert.AreEqual(3, 1 + 1); }
  }
}"""})
MASKED = "throw new NotImplementedException();"
TRANSLATED = 'return s.Split(\' \');'


@pytest.mark.slow
def test_a_test_blocked_by_a_placeholder_is_named_so_and_judges_the_member_it_waits_for(tmp_path):
    needs_mono()
    repo = write_tree(tmp_path / "repo", {**FILES, "src/Core/Cron.cs": CRON % MASKED})
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "known") as runner:
        known = known_failures(runner, repo, timeout=300)
    assert known["T:Acme.Tests.CronTests.Counts"] == "blocked by untranslated code (Acme.Fields.Split)", known
    # the port wraps the placeholder's exception in its own, message only: the runner's call-chain record tells
    assert known["T:Acme.Tests.CronTests.Parses"] == "blocked by untranslated code (Acme.Fields.Split)", known
    assert known["T:Acme.Tests.CronTests.Zone"] == "a time zone"
    assert known["T:Acme.Tests.CronTests.Wrong"] == "an assertion (Expected: 3)"
    rel = "src/Core/Cron.cs"
    with judging(repo, tmp_path / "work") as judge:
        judge.limits = replace(judge.limits, known_failures=tuple(known.items()))
        wrong = judge.run(rel, CRON % "return new string[0];", ["T:Acme.Tests.CronTests.Counts"])
        right = judge.run(rel, CRON % TRANSLATED, ["T:Acme.Tests.CronTests.Counts"])
    assert wrong.status == "test_failure" and not wrong.left_out, (wrong.reason, wrong.left_out)
    assert right.status == "passed" and right.tests_run == 1


@pytest.mark.slow
def test_doctor_names_every_test_failing_before_any_change_with_its_cause(tmp_path):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section, render

    repo = write_tree(tmp_path / "repo", {**FILES, "src/Core/Cron.cs": CRON % MASKED})
    title, lines = build_section(repo, ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd")
    text = render(title, lines)
    named = sorted(line for _, line in lines if line.startswith("failing before any change: Acme."))
    assert named == [
        "failing before any change: Acme.Tests.CronTests.Counts: blocked by untranslated code (Acme.Fields.Split)",
        "failing before any change: Acme.Tests.CronTests.Parses: blocked by untranslated code (Acme.Fields.Split)",
        "failing before any change: Acme.Tests.CronTests.Wrong: an assertion (Expected: 3)",
        "failing before any change: Acme.Tests.CronTests.Zone: a time zone"], text
    written = [line for _, line in lines if "known-failures.tsv" in line]
    assert len(written) == 1 and written[0].startswith("2 of them written to "), text   # the blocked ones judge
