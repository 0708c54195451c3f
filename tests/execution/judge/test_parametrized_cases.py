"""Every selected test is accounted for (fixture written for this test, compiled by mcs and run by repotrans's
NUnit runner for real). Parametrized cases with backslashes, quotes, Unicode, commas, line breaks, spaces
and long strings are named by the runner's own names, which the baseline records and a selection names back
unchanged. A case that does not run here (a sample's `[TestCase("d:\\temp\\a.wkt")]` that ignores itself
when the drive is missing) is a fact about this place: it does not run on the untouched port either, so it
is left out and named, never a runtime error against the body (a held-out port's ground truths were
dropped as "3 selected test(s) did not run")."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.judge.untouched import known_failures
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import read_known_failures, write_known_failures
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

LONG = "x" * 60
FILES = core_and_tests(
    {"Paths.cs": "namespace Acme { public static class Paths { public static int Len(string s) { return s.Length; } } }"},
    {"PathsTests.cs": r'''using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class PathsTests {
    [TestCase("d:\\temp\\a.wkt", 14)]
    [TestCase("say \"hi\"", 8)]
    [TestCase("ünï€", 4)]
    [TestCase("LONG1", 61)]
    [TestCase("LONG2", 61)]
    [TestCase("line\nbreak", 10)]
    [TestCase("a,b", 3)]
    public void Len(string s, int n) {
      if (s.StartsWith("d:") && !System.IO.Directory.Exists("d:\\temp")) Assert.Ignore("no such drive");
      Assert.AreEqual(n, Paths.Len(s));
    }
  }
}'''.replace("LONG1", LONG + "1").replace("LONG2", LONG + "2")})
DRIVE = 'T:Acme.Tests.PathsTests.Len("d:\\\\temp\\\\a.wkt",14)'
CASES = ['Acme.Tests.PathsTests.Len("a,b",3)', 'Acme.Tests.PathsTests.Len("line\\nbreak",10)',
         'Acme.Tests.PathsTests.Len("say \\"hi\\"",8)', 'Acme.Tests.PathsTests.Len("\\x00FCn\\x00EF\\x20AC",4)',
         f'Acme.Tests.PathsTests.Len("{LONG}1",61)', f'Acme.Tests.PathsTests.Len("{LONG}2",61)']


@pytest.mark.slow
def test_odd_cases_are_matched_by_the_runners_names_and_a_case_that_cannot_run_here_is_left_out(tmp_path):
    needs_mono()
    repo = write_tree(tmp_path / "repo", FILES)
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "known") as runner:
        known = known_failures(runner, repo, timeout=300)
    assert known == {DRIVE: "does not run here (Ignored: no such drive)"}, known
    path = write_known_failures(tmp_path / "known.tsv", known)
    assert dict(read_known_failures(path)) == known                 # a case's name keeps its spaces and quotes
    rel = "src/Core/Paths.cs"
    with judging(repo, tmp_path / "work") as judge:
        original = judge.run(rel, judge.original(rel))                      # no record: run again untouched
        judge.limits = replace(judge.limits, known_failures=tuple(known.items()))
        recorded = judge.run(rel, judge.original(rel), ["T:Acme.Tests.PathsTests.Len"])
        wrong = judge.run(rel, judge.original(rel).replace("return s.Length;", "return s.Length + 1;"))
        again = judge.run(rel, judge.original(rel).replace("return s.Length;", "return s.Length + 1;"),
                          ["T:" + f.name for f in wrong.failures])
    for verdict in (original, recorded):
        assert (verdict.status, verdict.tests_run) == ("passed", 6), (verdict.reason, verdict.failures)
        assert list(verdict.left_out) == [DRIVE]
        assert verdict.reason == "judged on 6 of 7 tests; 1 did not run, as on the untouched port"
    assert wrong.status == "test_failure" and sorted(f.name for f in wrong.failures) == sorted(CASES), wrong.failures
    assert again.status == "test_failure" and sorted(f.name for f in again.failures) == sorted(CASES)
