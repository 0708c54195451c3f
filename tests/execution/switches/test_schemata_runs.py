"""Schemata batches: the runner's job report read back (hits, firings, a tainted batch), and which
jobs may decide a verdict without a run of their own."""
from __future__ import annotations

import base64

from repotrans.execution.switches.schemata_runs import parse_batch
from repotrans.execution.toolchains.nunit import covered_by, covers
from repotrans.execution.workspace.selection import scaled_limit

NONCE = "n0nce"


def _b(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _line(*parts: str) -> str:
    return f"\n@@RT {NONCE} " + " ".join(parts)


def _test(state: str, name: str, ids: str = "", before: str = "") -> list[str]:
    return [_line("BEFORE", _b(name), _b(before)), _line("TEST", state, _b(name), _b(""), _b("")),
            _line("HITS", _b(name), _b(ids))]


def _job(n: int, switch: int, tests: list[tuple], fired: str, suites: str = "asm\nNs\nNs.FooTests") -> list[str]:
    lines = [_line("JOB", str(n), str(switch))]
    lines += [_line("PLAN", "Runnable", _b(t[1]), _b(suites)) for t in tests]
    lines.append(_line("START", str(len(tests))))
    for t in tests:
        lines += _test(*t)
    return lines + [_line("BEFORE", _b(""), _b("")), _line("FIRED", *fired.split()), _line("END", str(len(tests)))]


def test_a_batch_report_gives_each_finished_job_its_tests_hits_and_firings():
    out = "\n".join(
        ["test output on stdout is ignored", _line("PLAN", "Runnable", _b("forged"))]
        + _job(0, -1, [("Success", "Ns.FooTests.A", "3,5*", "7"), ("Failure", "Ns.FooTests.B", "")], "0 0")
        + _job(1, 3, [("Error", "Ns.FooTests.A", "")], "2 1")
        + [_line("TAINTED"), _line("DONE", "3")])
    jobs = [(-1, ["Ns.FooTests"]), (3, ["Ns.FooTests.A"]), (5, ["Ns.FooTests.A"])]
    run = parse_batch(out, NONCE, jobs)
    assert run.tainted and [j.switch for j in run.finished] == [-1, 3]      # the third job never ran
    truth, placeholder = run.finished
    assert truth.tests == [("Success", "Ns.FooTests.A"), ("Failure", "Ns.FooTests.B")] and not truth.problem
    assert truth.hits["Ns.FooTests.A"] == {"3", "5*"} and truth.failed() == ["Ns.FooTests.B"]
    assert truth.passes(["Ns.FooTests.A"]) and not truth.passes(["Ns.FooTests"]) and not truth.passes(["Ns.X"])
    # guard 7 was reached before test A (its fixture's setup): it counts for every test of the fixture
    assert truth.between == {"Ns": {"7"}, "Ns.FooTests": {"7"}}
    assert truth.reaching(3, ["Ns.FooTests.A"]) == (["Ns.FooTests.A"], False)
    assert truth.reaching(5, ["Ns.FooTests"]) == (["Ns.FooTests.A"], True)      # inside a static initializer
    assert truth.reaching(7, ["Ns.FooTests.B"]) == (["Ns.FooTests.B"], False)
    assert truth.reaching(9, ["Ns.FooTests"]) == ([], False)
    assert (placeholder.fired, placeholder.in_initializer) == (2, True)


def test_a_job_decides_keep_only_when_its_own_guard_threw_in_a_failing_test():
    def job(state: str, fired: str):
        out = "\n".join(_job(0, 4, [(state, "Ns.FooTests.A")], fired) + [_line("DONE", "1")])
        return parse_batch(out, NONCE, [(4, ["Ns.FooTests.A"])]).finished[0]

    assert job("Error", "1 0").placeholder_fails()
    assert not job("Success", "1 0").placeholder_fails()        # the placeholder passes: confirmed on its own
    assert not job("Failure", "0 0").placeholder_fails()        # a failure its guard did not cause (state left behind?)
    assert not job("Error", "1 1").placeholder_fails()          # thrown inside a static initializer
    # a report naming a test outside the job's selection is no evidence
    out = "\n".join(_job(0, 4, [("Error", "Ns.Other.X")], "1 0") + [_line("DONE", "1")])
    assert not parse_batch(out, NONCE, [(4, ["Ns.FooTests.A"])]).finished[0].placeholder_fails()


def test_a_test_that_did_not_run_concerns_only_the_selections_covering_it():
    out = "\n".join(_job(0, -1, [("Success", "Ns.FooTests.A"), ("Ignored", "Ns.FooTests.B")], "0 0")
                     + [_line("DONE", "2")])
    truth = parse_batch(out, NONCE, [(-1, ["Ns.FooTests"])]).finished[0]
    assert not truth.problem and truth.passes(["Ns.FooTests.A"]) and not truth.passes(["Ns.FooTests"])
    declared = out.replace(_line("PLAN", "Runnable", _b("Ns.FooTests.B"), _b("asm\nNs\nNs.FooTests")),
                           _line("PLAN", "Ignored", _b("Ns.FooTests.B"), _b("asm\nNs\nNs.FooTests")))
    assert parse_batch(declared, NONCE, [(-1, ["Ns.FooTests"])]).finished[0].passes(["Ns.FooTests"])


def test_a_batch_that_stops_early_keeps_only_whole_jobs_and_its_limit_grows_with_fixtures():
    cut = "\n".join(_job(0, 1, [("Error", "Ns.FooTests.A")], "1 0")
                     + [_line("JOB", "1", "2")] + [_line("PLAN", "Runnable", _b(n), _b("asm\nNs\nNs.BarTests"))
                                                   for n in ("Ns.BarTests.B", "Ns.BarTests.C")]
                     + [_line("START", "2")] + _test("Success", "Ns.BarTests.B"))
    run = parse_batch(cut, NONCE, [(1, ["Ns.FooTests.A"]), (2, ["Ns.BarTests"])])
    assert [j.switch for j in run.finished] == [1] and not run.tainted
    # the job running at the limit: what it reported counts for a selection it reported in whole
    assert run.cut.cut and run.cut.tests == [("Success", "Ns.BarTests.B")] and not run.cut.problem
    assert run.cut.whole_for(["Ns.BarTests.B"]) and not run.cut.whole_for(["Ns.BarTests"])
    assert not run.cut.placeholder_fails()
    assert scaled_limit(60, 1, 1) == 60 and scaled_limit(60, 5, 10) == 180 and scaled_limit(60, 2, 70) == 700



def test_a_selection_covers_the_same_tests_looked_up_by_prefix_as_name_by_name():
    names = ["Ns.FooTests.A", "Ns.FooTests.AB", 'Ns.FooTests.C("a.b",1)', "Ns.Param(2).D", "Ns.FooTestsX.E", "Ns.Foo"]
    selections = [["Ns.FooTests"], ["Ns.FooTests.A"], ["Ns.Foo"], ['Ns.FooTests.C("a'], ["Ns.FooTests.C"],
                  ["Ns.Param"], ["Ns.Param(2)"], ["Ns"], ["N"], ["Ns.FooTests.A", "Ns.Param(2).D"], []]
    for selected in selections:
        assert [n for n in names if covered_by(frozenset(selected), n)] == \
            [n for n in names if any(covers(s, n) for s in selected)], selected
    # a job's covered tests and its whole_for, for a selection naming tests and fixtures, and by suite
    out = "\n".join(_job(0, -1, [("Success", "Ns.FooTests.A"), ("Failure", "Ns.FooTests.AB"),
                                  ("Success", 'Ns.FooTests.C("a.b",1)')], "0 0") + [_line("DONE", "3")])
    job = parse_batch(out, NONCE, [(-1, ["Ns.FooTests"])]).finished[0]
    assert [n for _, n in job.covered(["Ns.FooTests.A", "Ns.FooTests.C"])] == \
        ["Ns.FooTests.A", 'Ns.FooTests.C("a.b",1)']
    assert [n for _, n in job.covered(["Ns"])] == ["Ns.FooTests.A", "Ns.FooTests.AB", 'Ns.FooTests.C("a.b",1)']
    assert job.covered(["Ns.FooTest", "Ns.FooTests.A("]) == [] and job.whole_for(["Ns.FooTests"])
