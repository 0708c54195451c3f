"""Dataset validation on one schemata build (execution.schemata) instead of two builds per task.

For each guarded task: its covering tests with every switch off (the ground truth: the port as it
is) must pass, and with its own switch on (the placeholder) must not. The verdict, its reasons and
its selection read as the per-task path's (datasets.validate_task), which still judges the members
the schemata cannot guard. First the capability check reads each ground truth's IL in the baseline
build, as the per-task path's build checks it (a rejected one is dropped before any test runs). Test
processes are batched (execution.schemata_runs):

1. ground truth: the union of every task's covering tests, every switch off, once (`jobs`
   processes, split by name), recording which guards each test reaches. A batch that stops early
   (a fixture running out of memory kills the process) counts what it reported in whole; the
   names covering the test it stopped in go alone, and the rest start a new batch. A task whose covered tests
   all passed there has a passing ground truth; any other (a failure, a test that did not run, a
   batch that did not finish) is run on its own, once per selection (shared by the tasks with the
   same covering tests: all switches off, their runs are the same program; a timeout only when its
   run hit a CPU-time limit, which the machine's load does not move), so its reason is the per-task
   path's;
2. placeholders: a task whose guard no covered test reached is dropped ("a placeholder passes its
   tests": with its switch on they run exactly as with it off); the others run as jobs of warm
   batches, each job only the tests that reached its guard. A guard reached inside a static
   initializer by any test of the batch sends its task alone (the initializer ran in whichever test
   touched the type first, maybe not one of the task's). A job decides "keep" only when a test
   failed in which its own guard threw; everything else runs on its own in a fresh process: with
   every test that reached its guard (the others run as with the switch off), or its whole selection
   where its guard sits in a static initializer or no hit table is whole. A task whose ground truth
   was read from the baseline has no hit table: its job runs its first tests, and when they decide
   nothing, one shared ground-truth batch of every such task's selection records who reaches them
   (but for a job whose guard threw in a static initializer: its whole selection runs alone at once,
   where the first test that touches the type fails, NPOI's BitField constructor).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from repotrans.execution.capability import checks
from repotrans.execution.judge.baseline import PortBaseline
from repotrans.execution.judge.baseline_outcomes import untouched_outcome
from repotrans.execution.judge.runner import Runner
from repotrans.execution.switches.schemata import OFF, Schemata, build_schemata, covering_selections, run_switch
from repotrans.execution.switches.schemata_runs import JobResult, run_batch
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.api import (BLOCKED, FLIPS, left_out_note, nothing_left, load_independent, covers,
                                                CHECKER_EXE, NOT_RUN_STATES, dependents, rel, untouched_cause)
from repotrans.execution.workspace.reach import Reachability, reaching_tests
from repotrans.execution.workspace.selection import Selection, fixtures_of, index_tests, scan_test_files
from repotrans.datasets import flaky
from repotrans.datasets.overlap import overlapping
from repotrans.datasets.truth_jobs import truth_jobs

PASSES = "a placeholder passes its tests"
JOB_TESTS = 8                     # a placeholder job runs at most this many of the tests reaching its guard
RESUMES = 4                       # new ground-truth batches after one stopped early, per chunk
POLICY_CHUNK = 200                # capability-check jobs per checker process (its answers fit the pipe)


def open_schemata(index, methods: list, runner: Runner) -> tuple:
    """(toolchain, sandbox, limits, schemata, method id -> covering selection) for `methods` of the index's
    target (one build), with the runner's toolchain (and build settings), sandbox and limits. The port's
    baseline build comes first: it decides which test files compile here (the others are quarantined), and
    the selections are made of those only. The call graph (the index's, no build needed), the scan of every
    test file and the search of every scanned test's reach (seconds of Python on a big port) are made beside
    that build (or the wait for the dataset build's, beside the mapping), so the selections after it read
    answers (Reachability keeps each token set searched) beside the schemata build (mcs, outside Python)."""
    ws = runner.workspace(index.root("target"))
    box = runner.sandbox(ws)
    reach = Reachability()
    with overlapping(), ThreadPoolExecutor(max_workers=1) as pool:      # beside the base build (or the wait for
        graph = pool.submit(reach.type_names, index)                    # it): the graph, the scan, the search
        scanned = pool.submit(_scan_tests, runner.toolchain, ws)
        ahead = pool.submit(_search_ahead, index, reach, scanned)
        runner.toolchain.baseline(ws, box, runner.limits)
        chosen = pool.submit(covering_selections, runner.toolchain, ws, index, methods, reach, scanned.result()[1])
        schemata = build_schemata(runner.toolchain, ws, index, methods, box, runner.limits, reach)
        built = time.monotonic()
        selections = chosen.result()
        graph.result()
        ahead.result()
    schemata.phases["selections past the build"] = round(time.monotonic() - built, 1)
    return runner.toolchain, box, runner.limits, schemata, selections


def _scan_tests(tc, ws) -> tuple[dict, dict]:
    """The workspace's test projects as the toolchain plans them now (before the base build: all of them), and
    their files read (selection.scan_test_files)."""
    projects = tc.test_projects(ws)
    return projects, scan_test_files(projects)


def _search_ahead(index, reach: Reachability, scanned: Future) -> None:
    """Every scanned test's reach searched before the base build says which test files compile: the
    selections after it ask about those it keeps, whose token sets are searched already (Reachability)."""
    projects, scans = scanned.result()
    reaching_tests(fixtures_of(projects, scans), lambda starts: reach.reaching(index, starts), "")


@dataclass
class Plan:
    """One guarded task: its member, switch, covering selection, and the names it runs per test project."""
    task: object
    method: object
    switch: int
    chosen: Selection
    names: dict[str, list[str]] = field(default_factory=dict)      # test project -> "Ns.Fixture[.Method]"
    selected: dict[str, list[str]] = field(default_factory=dict)   # ... all of its selection's (names: a job's)
    reaching: dict[str, list[str]] | None = None   # test project -> the tests that reached its guard (None: unknown)
    initializer: bool = False            # its guard threw inside a static initializer in a warm batch
    shared: float = 0.0                  # its part of the build and of the batches it was in (s)
    failed_together: bool = False        # a ground-truth batch saw one of its tests fail, not a known failure
    started: float | None = None         # when its own runs began (run alone)


def validate_guarded(index, tasks: list, runner: Runner, *, jobs: int, record: Callable,
                     make_validation: Callable, baseline: PortBaseline | None = None) -> tuple[list, Schemata | None]:
    """Validate the tasks the schemata guard; returns (tasks left to the per-task path, the build).
    `record(validation)` is called as each verdict is known; `make_validation(task, reason,
    selection, seconds)` builds one. `baseline`: the untouched port's, whose outcomes a ground truth
    run alone reads instead of running (judge.baseline_outcomes)."""
    if runner.toolchain.name != "mono" or not tasks:
        return tasks, None
    methods = [m for m in (index.method(t.target_method_id) for t in tasks) if m is not None]
    tc, box, limits, schemata, selections = open_schemata(index, methods, runner)
    clock = [time.monotonic()]

    def phase(name: str) -> None:
        """The wall seconds since the last step ended, as this step's (the report's where-the-time-goes)."""
        now = time.monotonic()
        schemata.phases[name] = round(now - clock[0], 1)
        clock[0] = now

    ws = schemata.ws
    projects = tc.plan(ws).chosen
    plans = []
    for task in tasks:
        switch = schemata.switch(task.target_method_id)
        if switch is None:
            continue
        m = index.method(task.target_method_id)
        plan = Plan(task, m, switch, selections[m.id])
        changed = {p.path for p in projects if p.name in schemata.built and (ws.src / m.path).resolve() in p.sources}
        affected = dependents(projects, changed, all_of_them=True)
        for project in projects:
            if project.is_test and project.path in affected:
                names = [t.split(":", 1)[1] for t in plan.chosen.tests if t.startswith(project.name + ":")]
                if names:
                    plan.names[project.name] = names
        plan.selected = dict(plan.names)
        plans.append(plan)
    by_project = {p.name: p for p in projects}
    workers, single = spread(jobs, limits)
    phase("selections")
    rejected = _rejected_truths(plans, index, ws, projects, box, limits)
    phase("capability check")
    for plan in [p for p in plans if p.task.id in rejected]:
        record(make_validation(plan.task, f"ground truth gives rejected: {rejected[plan.task.id]}",
                               plan.chosen.describe(), 0.0))
    plans = [p for p in plans if p.task.id not in rejected]

    def done(plan: Plan, reason: str | None) -> None:
        own = time.monotonic() - plan.started if plan.started is not None else 0.0
        record(make_validation(plan.task, reason, plan.chosen.describe(), round(plan.shared + own, 2)))

    started = time.monotonic()
    alone: list[tuple[Plan, bool]] = []                      # (plan, ground truth already passed)
    batched: list[Plan] = []
    read = _read_from_baseline(plans, baseline)
    for plan, outcome in read:
        schemata.count("ground truth read from the baseline")
        if outcome.status == "passed" and outcome.tests_run > 0:
            plan.names = _first_tests(plan.names, outcome.left_out)
            if plan.names:
                batched.append(plan)
            else:                         # every first test fails before any change: the whole selection
                alone.append((plan, True))
        else:                             # its own verdict, read again alone (no_tests, nothing left)
            alone.append((plan, False))
    taken = {id(plan) for plan, _ in read}
    plans = [p for p in plans if id(p) not in taken]
    truth = _truth_batches(plans, ws, schemata, projects, by_project, box, single, workers,
                           index_tests(ws, tc.test_projects(ws))) if plans else {}
    phase("ground-truth batches")
    again = flaky.unknown_failures(truth, {p.task.id: p.names for p in plans}, dict(limits.known_failures))
    if again:                   # failing where the baseline passed: run again, on the untouched port only
        found = flaky.run_again(again, ws, schemata.built, projects, by_project, box, limits)
        limits = flaky.record(found, limits, baseline)
        runner.limits = replace(runner.limits, known_failures=limits.known_failures)
        schemata.routes["flipping on the untouched port"] = len(found)
        phase("ground-truth failures run again")
    everyone = plans + [plan for plan, _ in read]
    for plan in everyone:           # the one build and the ground-truth batches, spread over the tasks
        plan.shared = (schemata.seconds + time.monotonic() - started) / len(everyone)
    in_initializers = _initializer_switches(truth)
    known = _known(limits)
    for plan in plans:
        results = [truth.get((plan.task.id, name)) for name in plan.names]
        if not plan.names or any(r is None for r in results) or not _passes(plan, results, known):
            plan.failed_together = bool(plan.names) and all(r is not None for r in results) and \
                _fails_beyond_known(plan, results, dict(limits.known_failures))
            alone.append((plan, False))
            continue
        reaching, initializer = _reaching(plan, results)
        if not _placed_by_hits(plan, results, reaching, initializer or plan.switch in in_initializers, known, done,
                               schemata):
            continue
        if plan.reaching is None or len(plan.reaching) > 1:
            alone.append((plan, True))
        else:
            plan.names = _nearest(plan.reaching, plan.names)
            batched.append(plan)
    undecided = []
    for plan, decided in _switch_batches(batched, ws, schemata, projects, by_project, box, single, workers, known):
        if decided:
            schemata.count("batched")
            done(plan, None)
        else:
            undecided.append(plan)
    phase("placeholder batches")
    unknown = [plan for plan in undecided if plan.reaching is None and not plan.initializer]
    alone += [(plan, True) for plan in undecided if plan.reaching is not None or plan.initializer]
    if unknown:       # read from the baseline (no hit table), undecided by their first tests: learn who reaches them
        for plan in unknown:
            plan.names = dict(plan.selected)
        truth = _truth_batches(unknown, ws, schemata, projects, by_project, box, single, workers,
                               index_tests(ws, tc.test_projects(ws)))
        in_initializers = _initializer_switches(truth)
        for plan in unknown:           # its ground truth passed (the baseline): the batch is read for hits only
            results = [truth.get((plan.task.id, name)) for name in plan.names]
            if any(r is None for r in results) or not _whole(plan, results):
                alone.append((plan, True))      # the hit table says nothing whole: its whole selection
                continue
            reaching, initializer = _reaching(plan, results)
            for project, names in _failed_here(plan, results, known).items():    # may have stopped before it
                reaching[project] = list(dict.fromkeys([*reaching.get(project, []), *names]))
            if _placed_by_hits(plan, results, reaching, initializer or plan.switch in in_initializers, known, done,
                               schemata):
                alone.append((plan, True))
        phase("hit tables of undecided placeholders")
    limits = _alone(alone, tc, schemata, index, box, replace(single, known_failures=limits.known_failures), workers,
                    done, baseline)
    runner.limits = replace(runner.limits, known_failures=limits.known_failures)
    phase("runs alone")
    return [t for t in tasks if schemata.switch(t.target_method_id) is None], schemata


def spread(jobs: int, limits: Limits) -> tuple[int, Limits]:
    """Validation's workers and the limits each runs with: every test process the build may run at once
    (`jobs` workers of `limits.test_processes` each) as a worker of its own, one process each. Most of its runs
    are placeholders failing in their first run, which goes alone (test_runs.plan_runs): one process each
    would leave the other cores idle."""
    return max(1, jobs) * max(1, limits.test_processes), replace(limits, test_processes=1)


def _truth_batches(plans: list[Plan], ws, schemata: Schemata, projects, by_project, box, limits, jobs: int,
                   index: dict[str, dict]) -> dict[tuple[str, str], list[JobResult]]:
    """The union of the plans' covering tests, every switch off, recording hits: (task, test project)
    -> the batch jobs holding its names (missing: a batch reported nothing). `index`: the test scan
    the selections came from (selection.index_tests), which sizes each batch's limit."""
    chunks = []                                              # (project, names, tasks)
    for project in sorted({name for plan in plans for name in plan.names}):
        names = sorted({n for plan in plans for n in plan.names.get(project, [])})
        size = -(-len(names) // max(1, jobs))
        chunks += [(project, names[i:i + size]) for i in range(0, len(names), size)]

    keys = {f"{p}:{n}" for plan in plans for p, ns in plan.names.items() for n in ns}
    size = {key: max(1, len(index[key]["tests"])) if key in index else 1 for key in keys}   # a fixture: its tests

    def one(chunk) -> list[tuple[str, set[str], JobResult | None]]:
        """A chunk's batches: one, or when a batch stops early (out of memory, its limit), what it
        reported in whole, the names covering the test it stopped in (None: their tasks run alone),
        and a new batch for the rest, at most RESUMES times."""
        project, names = chunk
        out: list[tuple[str, set[str], JobResult | None]] = []
        for _ in range(RESUMES + 1):
            fixtures = len({n if f"{project}:{n}" in index else n.rsplit(".", 1)[0] for n in names})
            run = run_batch(ws, schemata.built, projects, by_project[project], [(OFF, names)], box, limits,
                            record=True, fixtures=fixtures, tests=sum(size[f"{project}:{n}"] for n in names))
            job = run.finished[0] if run.finished else run.cut
            if job is None or not job.cut:
                return out + [(project, set(names), job)]
            done = {n for n in names if job.whole_for([n])}
            reported = {name for _, name in job.tests}
            stuck = next((t for t in job.planned if t not in reported), "")
            lost = {n for n in names
                    if n not in done and any(covers(n, t) for t in [stuck, *job.suites.get(stuck, [])])}
            out += [(project, done, job), (project, lost, None)]
            names = [n for n in names if n not in done and n not in lost]
            if not names or not (done or lost):
                break
        return out + ([(project, set(names), None)] if names else [])

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        finished = [entry for entries in pool.map(one, chunks) for entry in entries]
    found: dict[tuple[str, str], list[JobResult]] = {}
    for plan in plans:
        for project, names in plan.names.items():
            parts = [job for p, held, job in finished if p == project and held & set(names)]
            if parts and all(job is not None for job in parts):
                found[(plan.task.id, project)] = parts
    return found


def rejected_truths(index, tasks: list, runner: Runner) -> dict[str, str] | None:
    """Task id -> why the capability check rejects its ground truth, for tasks judged on the per-task path
    whose ground-truth outcomes are read from the baseline (their own run would have checked them); None
    where the checker does not run on the baseline build (not mono)."""
    if runner.toolchain.name != "mono" or not tasks:
        return None if runner.toolchain.name != "mono" else {}
    ws = runner.workspace(index.root("target"))
    box = runner.sandbox(ws)
    runner.toolchain.baseline(ws, box, runner.limits)
    plans = [Plan(t, m, 0, None) for t in tasks if (m := index.method(t.target_method_id)) is not None]
    return _rejected_truths(plans, index, ws, runner.toolchain.plan(ws).chosen, box, runner.limits)


def _rejected_truths(plans: list[Plan], index, ws, projects, box, limits) -> dict[str, str]:
    """Task id -> why the capability check rejects its ground truth, as the per-task path checks each
    candidate (toolchains.mono): its member in each assembly compiling its file, with the Java
    original's allowances; the ground truth's IL is the baseline's, so the baseline assemblies are
    read, all tasks in one checker process (chunks of POLICY_CHUNK jobs). No baseline to compare
    with: it would add the methods the candidate adds to it, none here (and it reads a second module
    per job)."""
    jobs = [(job.task_id, job.line(ws)) for plan in plans
            for job in truth_jobs(index, ws, projects, plan.task.id, plan.method,
                                  index.method(plan.task.source_method_id))]

    def run(argv: list[str], stdin: bytes):
        outcome = box.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb, stdin=stdin)
        return outcome.exit_code, outcome.stdout, outcome.timed_out

    verdicts = []
    for at in range(0, len(jobs), POLICY_CHUNK):
        verdicts += checks.run_checker(run, rel(ws.base / CHECKER_EXE, ws), [line for _, line in jobs[at:at + POLICY_CHUNK]])
    by_task: dict[str, list] = {}
    for (task_id, _), verdict in zip(jobs, verdicts):
        by_task.setdefault(task_id, []).append(verdict)
    return {task_id: merged.reason() for task_id, found in by_task.items()
            if not (merged := checks.merged_verdict(found)).ok}


def _read_from_baseline(plans: list[Plan], baseline: PortBaseline | None) -> list[tuple[Plan, object]]:
    """(plan, its ground truth's outcome) for the plans whose covering tests the untouched baseline answers
    (judge.baseline_outcomes): all switches off, the schemata build runs the port's own program, so no
    ground-truth batch runs them again. Such a plan has no hit table: its placeholder job runs the first
    tests of its selection (nearest first), and decides only "keep" on a failing test its own guard threw
    in, as every job does; an initializer its guard sits in taints the job or leaves it undecided, and an
    undecided job runs alone with the whole selection."""
    if baseline is None:
        return []
    found = []
    for plan in plans:
        outcome = untouched_outcome(baseline, plan.chosen.tests, plan.chosen.describe()) if plan.names else None
        if outcome is not None:
            found.append((plan, outcome))
    return found


def _first_tests(names: dict[str, list[str]], left_out: dict[str, str]) -> dict[str, list[str]]:
    """The first JOB_TESTS names of a selection's nearest test project (the selection's order is nearest
    first), but for those the baseline leaves out (failing before any change: they decide nothing). More
    per job cost more than they find: jobs of hundreds of names in one warm NPOI process reported tests
    under the wrong job (strays, missing results), and such a job decides nothing."""
    project = next(iter(names))
    first = [n for n in names[project] if f"{project}:{n}" not in left_out][:JOB_TESTS]
    return {project: first} if first else {}


def _initializer_switches(truth: dict[tuple[str, str], list[JobResult]]) -> set[int]:
    """Switches whose guard some test of the ground-truth batches reached inside a static initializer.
    The initializer runs once per process, in whichever test touches its type first, so a task's own
    tests may reach it alone even when the batch charged it to another task's test."""
    return {int(hit[:-1]) for parts in truth.values() for job in parts
            for hits in [*job.hits.values(), *job.between.values()] for hit in hits if hit.endswith("*")}


def _known(limits) -> dict[str, dict[str, str]]:
    """Test project ("" for any) -> runner test name -> cause, for the tests the limits name as failing
    before any change that a run leaves out (toolchains.mono_test.known_to_fail: not those blocked by
    untranslated code, which the candidate may be what they wait for)."""
    out: dict[str, dict[str, str]] = {}
    for key, why in limits.known_failures:
        project, _, name = key.partition(":")
        if not why.startswith(BLOCKED):
            out.setdefault(project, {})[name] = why
    return out


def _known_in(known: dict[str, dict[str, str]], project: str) -> frozenset[str]:
    return frozenset(known.get(project, {})) | frozenset(known.get("", {}))


def _left_out(plan: Plan, results: list[list[JobResult]], known: dict[str, dict[str, str]]) -> dict[str, str]:
    """The plan's covered tests that failed in the ground-truth batches and are known to fail before any
    change, with their causes, as a run names what it left out."""
    out = {}
    for project, parts in zip(plan.names, results):
        causes = {**known.get("", {}), **known.get(project, {})}
        for job in parts:
            covered = {name for _, name in job.covered(plan.names[project])}
            for name in job.failed():
                if name in causes and name in covered:
                    out[f"{project}:{name}"] = untouched_cause(causes[name])
    return out


def _passes(plan: Plan, results: list[list[JobResult]], known: dict[str, dict[str, str]]) -> bool:
    """The plan's covered tests passed (at least one ran) in whole, clean ground-truth batches, but for
    those `known` to fail before any change (left out, as a run leaves them out)."""
    for project, parts in zip(plan.names, results):
        names = plan.names[project]
        if any(job.problem or job.unhandled or not job.whole_for(names) for job in parts):
            return False
    return any(job.covered(plan.names[p]) for p, parts in zip(plan.names, results) for job in parts) and all(
        job.passes(plan.names[p], _known_in(known, p)) for p, parts in zip(plan.names, results) for job in parts
        if job.covered(plan.names[p]))


def _placed_by_hits(plan: Plan, results: list[list[JobResult]], reaching: dict[str, list[str]], initializer: bool,
                    known: dict[str, dict[str, str]], done: Callable, schemata: Schemata) -> bool:
    """What a hit table says of a plan whose ground truth passed: False when it decides it (no test reached its
    guard: dropped, done); True when its placeholder must run, with plan.reaching the tests that reached it, or
    left None when its guard sits in a static `initializer` (then its whole selection runs)."""
    if initializer:
        return True
    if not reaching:
        schemata.count("placeholder unreached")
        done(plan, PASSES + left_out_note(_left_out(plan, results, known)))
        return False
    plan.reaching = reaching
    return True


def _whole(plan: Plan, results: list[list[JobResult]]) -> bool:
    """Every test the plan's names cover has a result in the batches, and they reported cleanly."""
    return all(not job.problem and not job.unhandled and job.whole_for(plan.names[project])
               for project, parts in zip(plan.names, results) for job in parts)


def _failed_here(plan: Plan, results: list[list[JobResult]], known: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """Test project -> the plan's covered tests that failed in the batches, but for those `known` to fail
    before any change: a test that flipped here may have stopped before it reached the guard."""
    out: dict[str, list[str]] = {}
    for project, parts in zip(plan.names, results):
        for job in parts:
            covered = {name for _, name in job.covered(plan.names[project])}
            failed = [name for name in job.failed(_known_in(known, project)) if name in covered]
            if failed:
                out.setdefault(project, []).extend(failed)
    return out


def _fails_beyond_known(plan: Plan, results: list[list[JobResult]], known: dict[str, str]) -> bool:
    """Whether the batches show one of the plan's covered tests failing that the baseline does not know
    as failing before any change (or a report not whole): then its ground truth is run, never read."""
    for project, parts in zip(plan.names, results):
        for job in parts:
            if job.problem or job.unhandled or not job.whole_for(plan.names[project]):
                return True
            for state, name in job.covered(plan.names[project]):
                if state != "Success" and state not in NOT_RUN_STATES and \
                        f"{project}:{name}" not in known and f":{name}" not in known:
                    return True
    return False


def _reaching(plan: Plan, results: list[list[JobResult]]) -> tuple[dict[str, list[str]], bool]:
    """Test project -> the plan's covered tests that reached its guard; whether one did so inside a
    static initializer."""
    reaching: dict[str, list[str]] = {}
    initializer = False
    for project, parts in zip(plan.names, results):
        for job in parts:
            names, inside = job.reaching(plan.switch, plan.names[project])
            initializer |= inside
            if names:
                reaching.setdefault(project, []).extend(names)
    return reaching, initializer


def _nearest(reaching: dict[str, list[str]], selected: dict[str, list[str]]) -> dict[str, list[str]]:
    """The JOB_TESTS tests reaching a guard that its selection names first (nearest-first: the fewest calls
    between test and member). A job decides "keep" on one failing test its guard threw in, so a few suffice;
    a job they do not decide runs alone with the whole selection."""
    out = {}
    for project, names in reaching.items():
        order = selected.get(project, [])
        rank = {name: next((i for i, s in enumerate(order) if covers(s, name)), len(order)) for name in names}
        out[project] = sorted(names, key=lambda name: rank[name])[:JOB_TESTS]
    return out


def _switch_batches(plans: list[Plan], ws, schemata: Schemata, projects, by_project, box, limits, jobs: int,
                    known: dict[str, dict[str, str]]):
    """(plan, True when a batched job showed its placeholder failing a test its guard threw in, not one
    `known` to fail before any change)."""
    queues: list[list[Plan]] = [[] for _ in range(max(1, jobs))]
    for n, plan in enumerate(sorted(plans, key=lambda p: next(iter(p.names)))):
        queues[n % len(queues)].append(plan)
    out: list[tuple[Plan, bool]] = []
    lock = threading.Lock()

    def drain(queue: list[Plan]) -> None:
        while queue:
            project = next(iter(queue[0].names))
            batch = [p for p in queue if next(iter(p.names)) == project]
            run = run_batch(ws, schemata.built, projects, by_project[project],
                            [(p.switch, p.names[project]) for p in batch], box, limits,
                            fixtures=len(batch), tests=sum(len(p.names[project]) for p in batch))
            settled = [(plan, job.placeholder_fails(_known_in(known, project))) for plan, job in zip(batch, run.finished)]
            for plan, job in zip(batch, run.finished):
                plan.initializer |= job.in_initializer
            if run.tainted:                # its guard threw inside a static initializer: that job alone
                settled[-1] = (settled[-1][0], False)
                settled[-1][0].initializer = True
            elif len(settled) < len(batch):     # timed out or crashed: the job running then alone
                settled.append((batch[len(settled)], False))
            for plan, _ in settled:
                plan.shared += run.seconds / len(settled)
            with lock:
                out.extend(settled)
            ids = {id(p) for p, _ in settled}
            queue[:] = [p for p in queue if id(p) not in ids]     # the rest: a fresh process

    with ThreadPoolExecutor(max_workers=len(queues)) as pool:
        list(pool.map(drain, queues))
    return out


def _alone(plans: list[tuple[Plan, bool]], tc, schemata: Schemata, index, box, limits, jobs: int,
           done: Callable, baseline: PortBaseline | None = None):
    """Each plan in a fresh process with its whole selection, as the per-task path asks: the ground
    truth first (unless the batch showed it passing; read from `baseline` where it holds the outcomes,
    else one run per selection), then its switch, stopping at its first failing run (fail fast: one
    failure decides). A ground truth whose only failures are tests the baseline passed runs them again
    (datasets.flaky): those flipping are left out from then on. Returns the limits with them."""
    truths: dict[tuple, Future] = {}
    lock = threading.Lock()
    current = [limits]                      # with the tests found flipping so far
    projects = tc.plan(schemata.ws).chosen if plans and tc is not None else []
    by_project = {p.name: p for p in projects}

    def settle(plan: Plan, result):
        """`result` (a ground-truth run), or passed when its every failure flips on the untouched port."""
        if not flaky.whole(result):
            return result
        failed = flaky.failing_names(result, flaky.by_project(plan.chosen.tests or []), dict(current[0].known_failures))
        if not failed:
            return result
        found = flaky.run_again(failed, schemata.ws, schemata.built, projects, by_project, box, current[0])
        with lock:
            current[0] = flaky.record(found, current[0], baseline)
        settled = flaky.settled(result, failed, found)
        if settled is not result:
            schemata.count("ground truth passed but for flipping tests")
        return settled

    def truth(plan: Plan):
        """The all-off run of this selection: read from the baseline, or run once, awaited by every task
        sharing it."""
        read = None if plan.failed_together else untouched_outcome(baseline, plan.chosen.tests,
                                                                    plan.chosen.describe())
        if read is not None:
            schemata.count("ground truth read from the baseline")
            return read
        key = tuple(sorted(plan.chosen.tests)) if plan.chosen.tests is not None else None
        with lock:
            mine = key not in truths
            if mine:
                truths[key] = Future()
        if mine:
            try:
                truths[key].set_result(settle(plan, run_switch(tc, schemata, index, plan.method, OFF, box,
                                                               current[0], plan.chosen)))
            except BaseException as exc:
                truths[key].set_exception(exc)
                raise
        shared = truths[key].result()
        if shared.status == "timeout" and not mine and not load_independent(shared.reason):
            return run_switch(tc, schemata, index, plan.method, OFF, box, current[0], plan.chosen)   # wall: again
        return shared

    def one(item: tuple[Plan, bool]) -> None:
        plan, passed = item
        plan.started = time.monotonic()
        schemata.count("alone" if not passed else "switch alone")
        if not passed:
            ok = truth(plan)
            if (ok.status == "no_tests" or ok.status == "passed") and ok.tests_run == 0 and ok.left_out:
                return done(plan, nothing_left(ok.left_out))
            if ok.status == "no_tests" or (ok.status == "passed" and ok.tests_run == 0):
                return done(plan, f"no test covers it ({ok.selection or ok.reason or 'no tests ran'})")
            if ok.status != "passed":
                return done(plan, f"ground truth gives {ok.status}: {ok.reason or ok.brief().splitlines()[0]}")
        if passed and plan.reaching is not None:
            decided = _reaching_alone(plan, schemata, projects, by_project, box, current[0])
            if decided is not None:
                return done(plan, decided or None)
        bad = run_switch(tc, schemata, index, plan.method, plan.switch, box,
                         replace(current[0], fail_fast=True, verdict_only=True), plan.chosen)
        caught = bad.status not in ("passed", "no_tests")        # no_tests: every test reaching it flips here
        done(plan, None if caught else PASSES + left_out_note(bad.left_out))

    # one task per selection first (a worker waits on a run in flight only at the end), the biggest
    # selections first (the longest runs do not start last, with a worker idle beside them)
    seen: set = set()
    order = sorted(plans, key=lambda item: (_repeat(item[0], seen), -item[0].chosen.timeout(1.0)))
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        list(pool.map(one, order))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return current[0]


def _reaching_alone(plan: Plan, schemata: Schemata, projects, by_project, box, limits) -> str | None:
    """The plan's placeholder, in a fresh recording process per test project, on the tests that reached its
    guard with every switch off: with its switch on, the others run exactly as with it off (the rule that drops
    a placeholder no test reaches), so they decide nothing. "" (keep) when a test failed in which its guard
    threw (JobResult.caught: a test flipping here too, its failure the placeholder's), else why it passes;
    None when a run did not finish whole (then its whole selection runs, as before)."""
    known = _known(limits)
    left_out: dict[str, str] = {}
    for project, names in (plan.reaching or {}).items():
        causes = {**known.get("", {}), **known.get(project, {})}
        run = run_batch(schemata.ws, schemata.built, projects, by_project[project], [(plan.switch, names)], box,
                        limits, record=True, fixtures=len({n.rsplit(".", 1)[0] for n in names}), tests=len(names))
        job = run.finished[0] if run.finished and not run.tainted else None
        if job is None:
            return None
        if job.caught(frozenset(n for n, why in causes.items() if FLIPS not in why)):
            return ""
        left_out.update({f"{project}:{n}": untouched_cause(causes[n]) for _, n in job.tests if n in causes})
    return PASSES + left_out_note(left_out)


def _repeat(plan: Plan, seen: set) -> bool:
    """Whether a task with the same selection came before (records this one's)."""
    key = tuple(sorted(plan.chosen.tests)) if plan.chosen.tests is not None else None
    before = key in seen
    seen.add(key)
    return before
