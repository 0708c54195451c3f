"""How one test assembly's selected tests are run: in runs that each fit the judge's limits.

The selection comes nearest-first (workspace.reach: fewest calls between a test and the member). When the
untouched port's baseline measured these tests (judge.baseline), the tests of a fixture stay together
(its one-time set-up runs once) and are packed into runs whose measured seconds fit under the kill limit
(KILL_CAP at most); a selection that costs more than PROBE_SECONDS starts with a run of its nearest
fixture alone, so a failing candidate usually fails in seconds (fail fast: the verdict is already a
failure, later runs are not started). A pass runs every selected test. Each run's kill limit is scaled
from the measured seconds of its own tests, never from how many there are. A run the memory limit stopped
(several tests' heap in one process) is split in two and each half run again, down to one test: only a
test that runs out of memory alone is judged by it.

After the first run (the nearest fixture, where a failing candidate usually fails: it goes alone, so such a
candidate pays for no run beside it), runs may go `processes` at a time (cores the run's other jobs leave idle):
the verdict is the one running them one after another gives, the runs up to the first that does not pass, in plan order (a later run already under
way when an earlier one fails is not counted). A run on the untouched build (a failing test run again without
the candidate) waits, through the RunGate, until no candidate's run is under way and starts none beside it, so
a candidate's process never runs beside what is recorded as a fact about the port.
"""
from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping

KILL_CAP = 180.0          # seconds: no single run's kill limit beyond this (unless the user's --timeout is larger)
KILL_MARGIN = 3.0         # a run may take this many times its tests' measured seconds ...
STARTUP_SECONDS = 10.0    # ... plus the runner's start and the assembly's load
PROBE_SECONDS = 5.0       # a selection measured above this starts with its nearest fixture alone


@dataclass(frozen=True)
class TestRun:
    """One process's tests (fixture or method names, as the runner takes them) and its kill limit
    (None: the caller's limit, nothing measured)."""
    __test__ = False
    names: tuple[str, ...]
    timeout: float | None = None
    measured: float = 0.0


@dataclass
class Measured:
    """Seconds per test name of one assembly as the baseline measured them, summed per method (a
    [TestCase] method's cases) and per fixture, so any selected name is looked up at once."""
    seconds: dict[str, float] = field(default_factory=dict)
    methods: dict[str, list[str]] = field(default_factory=dict)     # fixture -> its measured methods, in order
    tests: set[str] = field(default_factory=set)                    # the measured test methods' names

    @classmethod
    def of(cls, per_test: Mapping[str, float]) -> "Measured":
        """From the runner's full test names ("Ns.Fixture.Test", "Ns.Fixture.Test(1)", and for a test a fixture
        inherits "Ns.Fixture.Base.Test") and their seconds: each counts for its method and for every name
        above it (its fixture, however deep the runner names it)."""
        out: dict[str, float] = {}
        methods: dict[str, list[str]] = {}
        for name, secs in per_test.items():
            method = name.split("(", 1)[0]
            if method not in out:
                for above in _above(method):
                    methods.setdefault(above, []).append(method)
            for key in {name, method, *_above(method)}:
                out[key] = out.get(key, 0.0) + secs
        return cls(out, methods, {name.split("(", 1)[0] for name in per_test})

    def parts(self, name: str) -> list[str]:
        """A whole fixture's measured methods (a run too big for one process is split along them); [name]
        for a method, or a fixture the baseline did not measure."""
        return list(self.methods.get(name, ())) or [name]

    def of_name(self, name: str) -> float | None:
        """A selected fixture's or method's measured seconds (None: the baseline did not run it)."""
        return self.seconds.get(name)

    def __bool__(self) -> bool:
        return bool(self.seconds)


def _above(method: str) -> list[str]:
    """The dotted names above a test method's ("A.F.Base.T" -> "A.F.Base", "A.F", "A")."""
    parts = method.split(".")
    return [".".join(parts[:n]) for n in range(len(parts) - 1, 0, -1)]


def kill_limit(measured: float, base: float, cap: float = KILL_CAP) -> float:
    """A run's kill limit from its tests' measured seconds: `base` (the configured seconds of a test
    run) at least, KILL_MARGIN times the measured time plus the start-up when that is more, and never
    beyond `cap` (or `base`, when the user asked for more)."""
    return min(max(base, KILL_MARGIN * measured + STARTUP_SECONDS), max(base, cap))


def capped(limit: float, base: float, cap: float = KILL_CAP) -> float:
    """A limit computed some other way (from a count of tests), held under the same cap."""
    return min(limit, max(base, cap))


def plan_runs(names: list[str], measured: Measured, base: float, cap: float = KILL_CAP,
              processes: int = 1) -> list[TestRun]:
    """The runs of one assembly's selected `names` (nearest first). Nothing measured: one run under the
    caller's limit, as before. Else fixtures kept whole where they fit (else split along their
    measured methods), packed in order into runs whose
    kill limit stays under the cap, the nearest fixture alone first when the whole costs more than
    PROBE_SECONDS, and what follows it, when it costs more than that too, in about `processes` runs of
    equal measured seconds (they go side by side: run_all). A name the baseline did not measure counts as
    taking the start-up time."""
    if not measured or not names:
        return [TestRun(tuple(names))]
    budget = (max(base, cap) - STARTUP_SECONDS) / KILL_MARGIN
    cost = {n: measured.of_name(n) if measured.of_name(n) is not None else STARTUP_SECONDS for n in names}
    names = [part for n in names for part in (measured.parts(n) if cost[n] > budget else [n])]
    cost = {n: measured.of_name(n) if measured.of_name(n) is not None else STARTUP_SECONDS for n in names}
    total = sum(cost.values())
    groups: dict[str, list[str]] = {}
    for name in names:              # fixture -> its names, in the order its nearest test came
        groups.setdefault(_fixture_of(name, measured), []).append(name)
    runs: list[list[str]] = []
    current: list[str] = []
    spent, share = 0.0, budget
    for index, members in enumerate(groups.values()):
        for name in members:
            if current and spent + cost[name] > share:
                runs.append(current)
                current, spent = [], 0.0
            current.append(name)
            spent += cost[name]
        if index == 0 and total > PROBE_SECONDS and len(groups) > 1:
            runs.append(current)    # the nearest fixture alone: a failure shows there first
            rest = total - spent
            if processes > 1 and rest > PROBE_SECONDS:
                share = min(budget, rest / processes)
            current, spent = [], 0.0
    if current:
        runs.append(current)
    return [TestRun(tuple(run), kill_limit(sum(cost[n] for n in run), base, cap), sum(cost[n] for n in run))
            for run in runs]


def _fixture_of(name: str, measured: Measured) -> str:
    """The fixture a selected name belongs to: the name less its last part for a test method (measured as
    one, or unmeasured in a measured fixture), else itself (a fixture)."""
    head = name.rsplit(".", 1)[0]
    if name in measured.tests or (measured.of_name(name) is None and measured.of_name(head) is not None):
        return head
    return name


def halves(run: TestRun, base: float, measured: Measured, cap: float = KILL_CAP) -> list[TestRun]:
    """A run the memory limit stopped, split in two (its nearest half first), each half's kill
    limit scaled from its own measured seconds ([] for a single name: it broke the limit alone)."""
    if len(run.names) == 1:
        run = TestRun(tuple(measured.parts(run.names[0])), run.timeout, run.measured)
    if len(run.names) < 2:
        return []
    middle = len(run.names) // 2
    out = []
    for part in (run.names[:middle], run.names[middle:]):
        secs = sum(measured.of_name(n) or 0.0 for n in part)
        out.append(TestRun(part, kill_limit(secs, base, cap) if measured else run.timeout, secs))
    return out


def out_of_memory(status: str, reason: str) -> bool:
    """A run the memory limit stopped (killed at it, or a test's OutOfMemoryException with the heap this
    process gathered): split, since the same tests in smaller runs may each fit. A run over its time
    limit is not split: planned runs already fit the measured time, so it took KILL_MARGIN times longer."""
    return status == "runtime_error" and reason.startswith("out of memory")


def run_all(runs: list[TestRun], run_one: Callable[[TestRun], tuple[object, bool]], passed: Callable[[object], bool],
            split: Callable[[TestRun], list[TestRun]], processes: int = 1) -> tuple[list[object], bool]:
    """Each run's verdict in order until one does not pass (fail fast), and whether runs were left unrun (or
    not counted); a run stopped by the memory limit (run_one's second answer) is replaced by `split`'s smaller
    runs when it has any. Once a run has ended, up to `processes` runs go at once; the answer is the one-at-a-time
    answer."""
    todo: list[tuple[tuple[int, ...], TestRun]] = [((n,), run) for n, run in enumerate(runs)]
    done: dict[tuple[int, ...], object] = {}
    failed: tuple[int, ...] | None = None
    with (ThreadPoolExecutor(processes, thread_name_prefix="test-run") if processes > 1 else _Here()) as pool:
        flying: dict[Future, tuple[tuple[int, ...], TestRun]] = {}
        while todo or flying:
            room = max(1, processes) if done else 1     # the first run alone: a failure usually shows there
            while todo and len(flying) < room and (failed is None or todo[0][0] < failed):
                key, run = todo.pop(0)
                flying[pool.submit(run_one, run)] = (key, run)
            if not flying:
                break
            finished, _ = wait(flying, return_when=FIRST_COMPLETED)
            for future in finished:
                key, run = flying.pop(future)
                verdict, limited = future.result()
                parts = split(run) if limited else []
                if parts:                  # in the stopped run's place, before every run not yet started
                    todo = sorted([(key + (n,), part) for n, part in enumerate(parts)] + todo, key=lambda kv: kv[0])
                    continue
                done[key] = verdict
                if not passed(verdict) and (failed is None or key < failed):
                    failed = key
    out = [done[key] for key in sorted(done) if failed is None or key <= failed]
    return out, failed is not None and (bool(todo) or any(key > failed for key in done))


class _Here:
    """An executor of one that runs each call in the caller's thread (one run at a time: no thread)."""

    def __enter__(self) -> "_Here":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def submit(self, fn: Callable, *args) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:          # re-raised by result(), as a pool's future would
            future.set_exception(exc)
        return future


class Slots:
    """Numbers 0..n-1 for the runs under way at once (each its own test area); 0 when one run goes at a time."""

    def __init__(self, n: int) -> None:
        self._free = list(range(max(1, n)))[::-1]
        self._lock = threading.Lock()

    @contextmanager
    def taken(self) -> Iterator[int]:
        with self._lock:
            slot = self._free.pop()
        try:
            yield slot
        finally:
            with self._lock:
                self._free.append(slot)


class RunGate:
    """Candidate runs go side by side (`beside`); a run on the untouched build goes alone (`alone`): it waits
    for the candidate runs under way, and none starts until it ends (a waiting `alone` goes first)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._beside = 0
        self._alone = False
        self._waiting = 0

    @contextmanager
    def beside(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._alone and not self._waiting)
            self._beside += 1
        try:
            yield
        finally:
            with self._cond:
                self._beside -= 1
                self._cond.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            self._cond.wait_for(lambda: not self._alone and not self._beside)
            self._waiting -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._cond:
                self._alone = False
                self._cond.notify_all()
