"""A selection's outcomes on the untouched port, read from its baseline instead of run again.

A ground truth put in place leaves the work copy identical to the untouched port: its covering tests run
the same program the baseline ran (the same content key, judge.baseline), so their outcomes are the
baseline's. Dataset validation's ground-truth runs are such runs. Read from the record: every covered test
that passed there counts as run and passed; one failing there before any change, or flipping there (passing
or failing), is left out with its cause, as a run leaves it out (toolchains.mono_test.known_to_fail). Where
the record cannot answer as a run would, nothing is read and the tests run: an assembly the baseline did
not run whole (toolchains.reported_whole: tests that threw are whole, a process cut short is not), a record
without result states (an older cache), a covered test failing for a cause a run does not leave out
(blocked by untranslated code), or a selected name that neither a recorded test's name nor one of its
suites falls under (but for tests the untouched run did not run, [Ignore]d, [Explicit] or ignored at run
time: a run of the same program skips them too).
A test is found under its suites too: the runner may report a method's cases under names of their own
(`[TestCase(..., TestName = "...")]`: ZXing.Net's Code128WriterTestCase.Should_Encode runs as "Start with A,
switch to B and back to A"), whose suite is the method.
"""
from __future__ import annotations

from collections import defaultdict

from repotrans.execution.judge.baseline import AssemblyBaseline, PortBaseline
from repotrans.execution.toolchains.api import (BLOCKED, FLIPS, covering_names, describe_environment, never_run_note,
                                                reported_whole, untouched_cause)
from repotrans.verdicts.results import TestResult


def untouched_outcome(baseline: PortBaseline | None, selected: list[str] | None, selection: str) -> TestResult | None:
    """The verdict the untouched port gives `selected` ("Project:Ns.Fixture[.Method]"), from `baseline`;
    None when it must run (see the module doc). `selection` is the selection's description, kept (with the
    tests the suite says not to run, as a run names them: judge.runner.never_run)."""
    if baseline is None or not selected:
        return None
    passed: set[str] = set()
    left_out: dict[str, str] = {}
    excluded: dict[str, str] = {}
    under: dict[str, tuple[dict[str, list[str]], dict[str, list[str]]]] = {}
    for entry in selected:
        project, _, name = entry.partition(":")
        record = baseline.assemblies.get(project)
        if record is None or not reported_whole(record.status, record.reason) or not record.states:
            return None
        if project not in under:
            under[project] = _tests_under(record), _not_run_under(record)
        covered = under[project][0].get(name, [])
        skipped = under[project][1].get(name, [])
        excluded.update({test: record.excluded[test] for test in skipped if test in record.excluded})
        if not covered and skipped:         # the untouched port does not run it: nor does a run
            continue
        if not covered:         # no recorded test nor suite of one falls under it: only a run can say
            return None
        for test in covered:
            why = record.failures.get(f"{project}:{test}", record.failures.get(f":{test}"))
            if record.states.get(test) == "Success" and (why is None or FLIPS not in why):   # a flaky pass decides nothing
                passed.add(f"{project}:{test}")
                continue
            if why is None or why.startswith(BLOCKED):
                return None
            left_out[f"{project}:{test}"] = untouched_cause(why)
    selection += never_run_note(excluded)
    if not passed:
        return TestResult(status="no_tests", selected=list(selected), selection=selection, left_out=left_out,
                          reason=("every selected test fails in this environment before any change: "
                                  + describe_environment(left_out)) if left_out else "no selected test ran")
    return TestResult(status="passed", tests_run=len(passed), selected=list(selected), selection=selection,
                      left_out=left_out, judge="read from the untouched baseline")


def _not_run_under(record: AssemblyBaseline) -> dict[str, list[str]]:
    """Each name a selection may give -> the tests under it the untouched run did not run ("Project:Ns.F.T"
    for those the suite says not to run, the record's excluded: [Ignore], [Explicit]; the runner's name for
    those reported in a not-run state, ignored or inconclusive at run time: timed, with no result state)."""
    return _under(record, [(key.split(":", 1)[1], key) for key in record.excluded]
                  + [(t, t) for t in record.seconds if t not in record.states])


def _tests_under(record: AssemblyBaseline) -> dict[str, list[str]]:
    """Each name a selection may give -> the recorded tests it covers (the test, or one of its suites,
    falls under it), in the record's order: those with a result state, then those the run left out of its
    report as failing before any change (a cause the environment gives: they ran, and have no state)."""
    own = f"{record.project}:"
    failing = [key[len(own):] for key in record.failures if key.startswith(own)]
    return _under(record, [(test, test) for test in [*record.states, *(t for t in failing if t not in record.states)]])


def _under(record: AssemblyBaseline, tests: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Each name a selection may give -> the keys of `tests` ((runner test name, key)) it covers: the test, or
    one of its suites, falls under it; in the order given."""
    out: dict[str, dict[str, None]] = defaultdict(dict)
    for test, key in tests:
        for name in [test, *record.suites.get(test, ())]:
            for cover in covering_names(name):
                out[cover][key] = None
    return {cover: list(keys) for cover, keys in out.items()}
