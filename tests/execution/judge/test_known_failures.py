"""Tests that fail on the untouched port whatever the cause, an assertion included (fixture written for this
test, compiled by mcs and run by repotrans's NUnit runner for real): like NSoup's URL tests on mono, where
`new Uri("/foo")` is an absolute file URI on Unix and an error on Windows, so `Assert.IsFalse` fails here
and passes in the port's own build. One run of the untouched suite names them with their causes; left out of
verdicts through the limits, the original body passes on the other tests, a wrong body still fails."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.judge.untouched import known_failures
from repotrans.execution.settings import ExecutionConfig
from tests.support.mono_repos import core_and_tests, judging, needs_mono, with_body, write_tree

BODY = "return new System.Uri(new System.Uri(baseUri), rel).ToString();"
FILES = core_and_tests(
    {"Links.cs": """namespace Acme { public static class Links {
  public static bool IsAbsolute(string s) { System.Uri u; return System.Uri.TryCreate(s, System.UriKind.Absolute, out u); }
  public static string Resolve(string baseUri, string rel) { %s } } }"""},
    {"LinksTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class LinksTests {
    [Test] public void Resolves() { Assert.AreEqual("http://a/b/c", Links.Resolve("http://a/b/", "c")); }
    [Test] public void ResolvesUp() { Assert.AreEqual("http://a/c", Links.Resolve("http://a/b/", "../c")); }
    [Test] public void RootedPathIsNotAbsolute() { Assert.IsFalse(Links.IsAbsolute("/foo")); }   // Windows only
  }
}"""})


@pytest.mark.slow
def test_failures_of_the_untouched_port_are_named_and_left_out(tmp_path):
    needs_mono()
    repo = write_tree(tmp_path / "repo", with_body(FILES, "src/Core/Links.cs", BODY))
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "known") as runner:
        known = known_failures(runner, repo, timeout=300)
    assert known == {"T:Acme.Tests.LinksTests.RootedPathIsNotAbsolute": "an assertion (Expected: False)"}, known
    text = FILES["src/Core/Links.cs"]
    with judging(repo, tmp_path / "work") as judge:
        unknown = judge.run("src/Core/Links.cs", text % BODY)
        judge.limits = replace(judge.limits, known_failures=tuple(known.items()))
        original = judge.run("src/Core/Links.cs", text % BODY)
        wrong = judge.run("src/Core/Links.cs", text % 'return baseUri + rel;')
    assert unknown.status == "test_failure" and not unknown.left_out      # an assertion: never environmental alone
    assert original.status == "passed" and original.tests_run == 2, (original.reason, original.failures)
    assert original.left_out == {"T:Acme.Tests.LinksTests.RootedPathIsNotAbsolute":
                                 "fails on the untouched port: an assertion (Expected: False)"}
    assert original.reason == "judged on 2 of 3 tests; 1 fail in this environment before any change"
    assert wrong.status == "test_failure" and [f.name.rsplit(".", 1)[-1] for f in wrong.failures] == ["ResolvesUp"]


def test_a_known_failures_file_round_trips_and_a_bad_line_is_named(tmp_path):
    from repotrans.errors import ConfigError
    from repotrans.execution.toolchains.api import read_known_failures, write_known_failures

    path = write_known_failures(tmp_path / "known.tsv", {"T:Acme.Tests.LinksTests.Rooted": "an assertion (Expected: False)"})
    (tmp_path / "more.tsv").write_text(path.read_text() + "Acme.Tests.Other.Test\n")
    assert read_known_failures(tmp_path / "more.tsv") == (
        ("T:Acme.Tests.LinksTests.Rooted", "an assertion (Expected: False)"), (":Acme.Tests.Other.Test", "listed in more.tsv"))
    (tmp_path / "bad.tsv").write_text("not a test name\n")
    with pytest.raises(ConfigError, match=r"bad.tsv:1: expected"):
        read_known_failures(tmp_path / "bad.tsv")


def test_the_cli_reads_known_failures_into_the_execution_settings(tmp_path):
    from repotrans.cli.main import build_parser
    from repotrans.cli.options import load_settings

    (tmp_path / "k.tsv").write_text("T:Acme.Tests.LinksTests.Rooted\tplatform\n")
    args = build_parser().parse_args(["batch", "--source", "s", "--target", "t", "--dry-run",
                                      "--known-failures", str(tmp_path / "k.tsv")])
    assert load_settings(args, {}).execution.known_failures == (("T:Acme.Tests.LinksTests.Rooted", "platform"),)
