"""Dataset validation on one schemata build (execution.schemata) instead of two builds per task.

For each guarded task: its covering tests with every switch off (the ground truth: the port as it
is) must pass, and with its own switch on (the placeholder) must not. The verdict, its reasons and
its selection read as the per-task path's (datasets.validate_task), which still judges the members
the schemata cannot guard. Test runs of different tasks share only the read-only build, so they run
`jobs` at a time. The ground-truth run is the same work for every task with the same covering tests
(same build, every switch off): it runs once per selection (say a fallback's fixtures, or a suite
that already fails on the untouched port) and its verdict serves them all; a timeout, which load
can cause, is not shared: each task sharing it runs its own.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from repotrans.execution.runner import Runner
from repotrans.execution.schemata import OFF, Schemata, build_schemata, covering_tests, run_switch


def open_schemata(index, methods: list, runner: Runner):
    """(toolchain, sandbox, limits, schemata) for `methods` of the index's target (one build), with
    the runner's toolchain (and build settings), sandbox and limits."""
    ws = runner.workspace(index.root("target"))
    box = runner.sandbox(ws)
    return runner.toolchain, box, runner.limits, build_schemata(runner.toolchain, ws, index, methods, box,
                                                                runner.limits)


def validate_guarded(index, tasks: list, runner: Runner, *, jobs: int, record: Callable,
                     make_validation: Callable) -> tuple[list, Schemata | None]:
    """Validate the tasks the schemata guard; returns (tasks left to the per-task path, the build).
    `record(validation)` is called as each verdict is known; `make_validation(task, reason,
    selection, seconds)` builds one."""
    if runner.toolchain.name != "mono" or not tasks:
        return tasks, None
    methods = [m for m in (index.method(t.target_method_id) for t in tasks) if m is not None]
    tc, box, limits, schemata = open_schemata(index, methods, runner)
    guarded = [t for t in tasks if schemata.switch(t.target_method_id) is not None]
    share = schemata.seconds / max(1, len(guarded))          # the one build, spread over the tasks it serves

    truths: dict[tuple, Future] = {}
    lock = threading.Lock()

    def truth(m, chosen):
        """The all-off run of this selection: run once, awaited by every task sharing it."""
        key = tuple(sorted(chosen.tests)) if chosen.tests is not None else None
        with lock:
            mine = key not in truths
            if mine:
                truths[key] = Future()
        if mine:
            try:
                truths[key].set_result(run_switch(tc, schemata, index, m, OFF, box, limits, chosen))
            except BaseException as exc:
                truths[key].set_exception(exc)
                raise
        shared = truths[key].result()
        if shared.status == "timeout" and not mine:      # a limit hit under load is not shared: run again
            return run_switch(tc, schemata, index, m, OFF, box, limits, chosen)
        return shared

    def one(task) -> None:
        started = time.monotonic()
        m = index.method(task.target_method_id)
        chosen = covering_tests(tc, schemata, index, m)
        ok = truth(m, chosen)

        def done(reason: str | None) -> None:
            record(make_validation(task, reason, ok.selection, round(time.monotonic() - started + share, 2)))

        if ok.status == "no_tests" or (ok.status == "passed" and ok.tests_run == 0):
            return done(f"no test covers it ({ok.selection or ok.reason or 'no tests ran'})")
        if ok.status != "passed":
            return done(f"ground truth gives {ok.status}: {ok.reason or ok.brief().splitlines()[0]}")
        bad = run_switch(tc, schemata, index, m, schemata.switch(m.id), box, limits, chosen)
        done("a placeholder passes its tests" if bad.status == "passed" else None)

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        list(pool.map(one, guarded))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [t for t in tasks if schemata.switch(t.target_method_id) is None], schemata
