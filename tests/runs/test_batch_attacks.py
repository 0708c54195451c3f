"""End to end, nothing wrong reaches the user's port: real batches (`repotrans batch`, mcs, the runner, NUnit,
local sandbox) on the sample with IsBlank and FormatNumber masked, a fake model answering chosen candidates per
task, in both orders, with --write, --patch and --batch-candidates.

IsBlank's wrong body is right for blank text and on other text reaches FormatNumber as a method group through a
LINQ pipeline deeper than five frames (its Java original never calls formatNumber); FormatNumber's wrong body fails its own
tests, so its placeholder stays. On the old evidence the wrong IsBlank was blocked behind FormatNumber, then
passed on the tests that could run and written by --write. Now it is a failure (the runner's record puts it on
the chain), a right body after it passes and is written, and a verdict resting on left-out tests is `partial`,
written only with --write-partial."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.sample_masking import masked_sample
from tests.support.scripted_batch import (FORMAT, IS_BLANK, ScriptedModel, member_text, run_batch, same, sample_index,
                                          statuses, truth)

pytestmark = pytest.mark.slow
CONFIG = "[agents]\nrag = false\nmax_repair_rounds = 1\n[model]\nmax_retries = 0\n[execution]\nsandbox = \"local\"\n"
WRONG_BLANK = """public static bool IsBlank(string text)
{
    if (text == null || text.Trim().Length == 0)
    {
        return true;
    }
    return System.Linq.Enumerable.ToList(System.Linq.Enumerable.OrderBy(System.Linq.Enumerable.Where(
        System.Linq.Enumerable.Select(System.Linq.Enumerable.Zip(new[] { 1.0, 2.0 }, new[] { 0, 0 }, FormatNumber),
            s => s + "."), s => s != null), s => s)).Count == 2;
}"""
WRONG_FORMAT = """public static string FormatNumber(double value, int maxDecimals)
{
    return value.ToString();
}"""
# IsBlank's other wrong body hands the placeholder to a port helper its Java original never calls (GroupBy calls
# the lambda that calls FormatNumber): the runner's record shows IsBlank below the helper, so it is a failure
WRONG_BLANK_HOOK = """public static bool IsBlank(string text)
{
    if (text == null || text.Trim().Length == 0)
    {
        return true;
    }
    return CollectionUtils.GroupBy(new[] { 1.0, 2.0 }, d => FormatNumber(d, 0)).Count == 2;
}"""
MARK_BLANK, MARK_FORMAT = "s => s + \".\"", "return value.ToString();"      # text only the wrong bodies hold
MARK_HOOK = "d => FormatNumber(d, 0)"


def wrong(name: str, kind: str) -> str:
    """The wrong candidate of `kind` for member `name`."""
    return WRONG_BLANK_HOOK if kind == "hook" else {"IsBlank": WRONG_BLANK, "FormatNumber": WRONG_FORMAT}[name]


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    yield from sample_index(tmp_path_factory)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("attacks-workdir")       # one baseline build for every batch


def batch(full, workdir: Path, tmp: Path, scripts: dict[str, list[str]], *flags: str) -> tuple[int, dict, Path]:
    java, cs = masked_sample(tmp, IS_BLANK, FORMAT)
    rc, summary = run_batch(ScriptedModel(full, scripts, wrong), java, cs, tmp, CONFIG, workdir, *flags)
    return rc, summary, cs


SCENARIOS = [
    # (id, scripts, flags, final statuses, members written with their right body, exit status)
    # IsBlank's right body is partial while FormatNumber stays a placeholder (its shape tests stop there): held back
    ("wrong then right, --write", {"IsBlank": ["wrong", "right"], "FormatNumber": ["wrong"]}, ["--write"],
     {"IsBlank": "partial", "FormatNumber": "failed"}, [], 3),
    ("right then wrong, --write --batch-candidates", {"IsBlank": ["right", "wrong"], "FormatNumber": ["wrong"]},
     ["--write", "--batch-candidates"], {"IsBlank": "partial", "FormatNumber": "failed"}, [], 3),
    ("always wrong, --write --patch", {"IsBlank": ["wrong"], "FormatNumber": ["wrong"]}, ["--write", "--patch"],
     {"IsBlank": "failed", "FormatNumber": "failed"}, [], 0),
    # FormatNumber's right body alone is partial too: shape tests stop in IsBlank's placeholder, which stays
    ("the callee right, the caller wrong, --patch --batch-candidates", {"IsBlank": ["wrong"], "FormatNumber": ["right"]},
     ["--patch", "--batch-candidates"], {"IsBlank": "failed", "FormatNumber": "partial"}, [], 3),
    ("the callee right, the caller wrong then right, --write --patch",
     {"IsBlank": ["wrong", "right"], "FormatNumber": ["right"]}, ["--write", "--patch"],
     {"IsBlank": "passed", "FormatNumber": "passed"}, ["IsBlank", "FormatNumber"], 0),
    # the placeholder handed to a port helper (GroupBy), in both orders
    ("the caller hands the placeholder to a port helper, then right, --write --batch-candidates",
     {"IsBlank": ["hook", "right"], "FormatNumber": ["wrong"]}, ["--write", "--batch-candidates"],
     {"IsBlank": "partial", "FormatNumber": "failed"}, [], 3),
    ("the caller right, then the placeholder to a port helper, --write --patch",
     {"IsBlank": ["right", "hook"], "FormatNumber": ["wrong"]}, ["--write", "--patch"],
     {"IsBlank": "partial", "FormatNumber": "failed"}, [], 3),
    ("the callee right, the caller hands it to a port helper then right, --write --patch --batch-candidates",
     {"IsBlank": ["hook", "right"], "FormatNumber": ["right"]}, ["--write", "--patch", "--batch-candidates"],
     {"IsBlank": "passed", "FormatNumber": "passed"}, ["IsBlank", "FormatNumber"], 0),
    ("always the port helper, --write --patch", {"IsBlank": ["hook"], "FormatNumber": ["wrong"]},
     ["--write", "--patch"], {"IsBlank": "failed", "FormatNumber": "failed"}, [], 0),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_nothing_wrong_reaches_the_port(full, workdir, tmp_path, scenario):
    name, scripts, flags, expected, right, status = scenario
    if "--patch" in flags:
        flags = [f if f != "--patch" else "--patch=" + str(tmp_path / "change.diff") for f in flags]
    rc, summary, cs = batch(full, workdir, tmp_path, scripts, *flags)
    assert statuses(tmp_path) == expected, (name, summary["problems"])
    assert rc == status, (name, summary)
    written = "--write" in flags
    for member in ("IsBlank", "FormatNumber"):
        now = member_text(cs, member)
        if written and member in right:
            assert same(now, truth(member)), (name, member, now)
        else:
            assert "NotImplementedException" in now, (name, member, now)
        assert MARK_BLANK not in now and MARK_FORMAT not in now and MARK_HOOK not in now, (name, member)
    patch = tmp_path / "change.diff"
    if patch.exists():
        diff = patch.read_text()
        assert MARK_BLANK not in diff and MARK_FORMAT not in diff and MARK_HOOK not in diff, (name, diff)
        assert all(f"{m}(" in diff for m in right), (name, diff)


def test_a_partial_verdict_is_written_only_when_asked(full, workdir, tmp_path):
    """IsBlank right, FormatNumber wrong: IsBlank's covering shape tests stop in FormatNumber's placeholder, so
    IsBlank is `partial` (passed on the tests that could run): held back by --write, with exit 3 and the reason;
    FormatNumber's record names it as resting on its failure."""
    rc, summary, cs = batch(full, workdir, tmp_path / "a", {"IsBlank": ["right"], "FormatNumber": ["wrong"]},
                            "--write")
    assert statuses(tmp_path / "a") == {"IsBlank": "partial", "FormatNumber": "failed"}
    assert rc == 3 and summary["partial"] == 1 and summary["passed"] == 0, summary
    assert [w[0] for w in summary["withheld"]] == [IS_BLANK] and "--write-partial" in summary["withheld"][0][1]
    assert "NotImplementedException" in member_text(cs, "IsBlank")
    held = json.loads(next((tmp_path / "a" / "run" / "tasks").glob("*FormatNumber*")).joinpath("result.json")
                      .read_text())["result"]
    assert held["holds_up"] == [IS_BLANK]
    rc, summary, cs = batch(full, workdir, tmp_path / "b", {"IsBlank": ["right"], "FormatNumber": ["wrong"]},
                            "--write", "--write-partial")
    assert rc == 0 and summary["withheld"] == [] and same(member_text(cs, "IsBlank"), truth("IsBlank")), summary
