"""An engine-style port (tests/fixtures/engine_pair: a scheduler library in Java and its C# port; NUnit 2.6 tests
that start an engine once per fixture, go through the scheduler, share state across tests, an [Explicit] stress
test and an "Integration" fixture that need a database) judged for real: mcs builds, repotrans's runner.

- Its own bodies fed back as candidates pass (dataset build's validation), but for the members no test the suite
  runs reaches (the database store's), which are dropped saying why; no verdict rests on the explicit or
  integration tests, nor on the four tests whose outcome flips with the order they run in.
- Masked whole, its baseline calls every failing test blocked by untranslated code, never environment nor the
  test's own code: the fixtures whose one-time set-up starts the engine fail there, and the parser wraps the
  placeholder's exception into its own FormatException (message only).
- A correct body behind that wrapped placeholder is blocked, not failed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.datasets.build import build_dataset
from repotrans.datasets.masking import candidate_tasks, mask_repo
from repotrans.execution.judge.baseline import BaselineCache, port_baseline
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from tests.support.mono_repos import needs_mono

pytestmark = pytest.mark.slow

PAIR = Path(__file__).resolve().parents[2] / "fixtures" / "engine_pair"
TESTS = "Example.Engine.Tests"
FLIPPING = {f"Engine.Tests:{TESTS}.InterruptTests.{t}" for t in
            ("InterruptsARunningJob", "PollsTheClock(1)", "PollsTheClock(2)", "StaysPaused")}
NEVER_RUN = {f"Engine.Tests:{TESTS}.DbJobStoreTests.SchedulesIntoTheDatabase":
             f'[Category("Integration")] on {TESTS}.DbJobStoreTests',
             f"Engine.Tests:{TESTS}.StressTests.ThousandsOfJobs": "[Explicit]"}
DB = "Example.Engine.DbJobStore"


def test_the_ports_own_bodies_pass_and_nothing_rests_on_a_test_the_suite_does_not_run(tmp_path):
    needs_mono()
    ds = build_dataset(PAIR / "java", PAIR / "csharp", tmp_path / "ds", execution=ExecutionConfig(sandbox="local"),
                       progress=False, schemata=False, cache_root=tmp_path / "cache")
    assert set(ds.fails_before_any_change) == FLIPPING
    assert all(why.startswith("flips on the untouched port") for why in ds.fails_before_any_change.values())
    dropped = {d["id"]: d["reason"] for d in ds.dropped}
    assert sorted(dropped) == [f"{DB}.<init>(string)", f"{DB}.Add(string, Trigger, long)", f"{DB}.Clear()",
                               f"{DB}.Connect()", f"{DB}.Count", f"{DB}.Due(long)"], dropped
    assert all(why.startswith(("no test covers it", "a placeholder passes its tests")) for why in dropped.values())
    # reasons are exact: the covering tests of the store's constructor are ones the suite never runs
    assert dropped[f"{DB}.<init>(string)"].endswith(
        f'never run, the suite says not to: 1 [Category("Integration")] on {TESTS}.DbJobStoreTests, 1 [Explicit] '
        f'({TESTS}.DbJobStoreTests.SchedulesIntoTheDatabase, {TESTS}.StressTests.ThousandsOfJobs))'), dropped
    # ... and the tests left out of the placeholder's run flip, they do not fail here
    assert dropped[f"{DB}.Due(long)"] == ("a placeholder passes its tests (1 more covering tests left out: 1 flip on "
                                          "the untouched port (flaky))")
    assert len(ds.tasks) == 17          # every other member: its own body passed, its placeholder did not
    report = (tmp_path / "ds" / "report.md").read_text()
    assert "2 tests the suite says not to run are never run" in report
    assert all(f"| `{test}` | {why} |" in report for test, why in NEVER_RUN.items())
    with _runner(tmp_path) as runner:
        base = port_baseline(runner, PAIR / "csharp", BaselineCache.under(tmp_path / "cache"), timeout=300)
    assert base.computed == [] and base.excluded == NEVER_RUN        # from the cache dataset build filled


def test_a_masked_engine_port_blames_its_placeholders_never_the_environment(tmp_path):
    needs_mono()
    full = Index.open(tmp_path / "index")
    full.build(PAIR / "java", PAIR / "csharp", progress=False)
    target = tmp_path / "masked"
    shutil.copytree(PAIR / "csharp", target)
    mask_repo(full, candidate_tasks(full), target)
    with _runner(tmp_path) as runner:
        base = port_baseline(runner, target, BaselineCache(None), timeout=300)
    failing = base.known_failures
    assert failing and all(why.startswith("blocked by untranslated code (") for why in failing.values()), failing
    # the engine started once per fixture: every test of those fixtures fails in the one-time set-up
    assert failing[f"Engine.Tests:{TESTS}.SchedulerTests.RunsADueJob"] == \
        "blocked by untranslated code (Example.Engine.Engine.Start)"
    # Trigger.Parse's placeholder (its own) and, through the scheduler, the parser's wrapped one
    assert failing[f"Engine.Tests:{TESTS}.TriggerTests.ParsesASpec"] == \
        "blocked by untranslated code (Example.Engine.Trigger.Parse)"
    assert base.excluded == NEVER_RUN and not set(failing) & set(NEVER_RUN)


def test_a_correct_body_behind_a_placeholder_the_port_wraps_is_blocked_not_failed(tmp_path):
    """Scheduler.Schedule calls Trigger.Parse, which catches Fields.Split's NotImplementedException and throws
    its own FormatException, message only: the runner's record of the call chain still sees the placeholder."""
    needs_mono()
    full = Index.open(tmp_path / "full")
    full.build(PAIR / "java", PAIR / "csharp", progress=False)
    schedule = "Example.Engine.Scheduler.Schedule(string, string, Action, long)"
    target = tmp_path / "masked"
    shutil.copytree(PAIR / "csharp", target)
    mask_repo(full, candidate_tasks(full, ["Example.Engine.Fields.Split(string)", schedule]), target)
    index = Index.open(tmp_path / "index")
    index.build(PAIR / "java", target, progress=False)
    member = index.method("target:" + schedule)
    java = index.method(load_mapping(index).source_method(member.id).source_id)
    original = full.method("target:" + schedule)
    code = (PAIR / "csharp" / original.path).read_bytes()[original.start_byte:original.end_byte].decode()
    with _runner(tmp_path) as runner:
        result = runner.run(index, member, code, java=java)
    assert result.status == "blocked", (result.status, result.reason)
    assert "Example.Engine.Fields.Split" in result.reason


def _runner(tmp_path: Path) -> Runner:
    return Runner(ExecutionConfig(sandbox="local"), tmp_path / "judge", trusted=True)
