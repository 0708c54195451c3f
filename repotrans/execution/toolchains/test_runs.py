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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

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

    @classmethod
    def of(cls, per_test: Mapping[str, float]) -> "Measured":
        """From the runner's full test names ("Ns.Fixture.Test", "Ns.Fixture.Test(1)") and their seconds."""
        out: dict[str, float] = {}
        methods: dict[str, list[str]] = {}
        for name, secs in per_test.items():
            method = name.split("(", 1)[0]
            fixture = method.rsplit(".", 1)[0]
            if method not in out:
                methods.setdefault(fixture, []).append(method)
            for key in {name, method, fixture}:
                out[key] = out.get(key, 0.0) + secs
        return cls(out, methods)

    def parts(self, name: str) -> list[str]:
        """A whole fixture's measured methods (a run too big for one process is split along them); [name]
        for a method, or a fixture the baseline did not measure."""
        return list(self.methods.get(name, ())) or [name]

    def of_name(self, name: str) -> float | None:
        """A selected fixture's or method's measured seconds (None: the baseline did not run it)."""
        return self.seconds.get(name)

    def __bool__(self) -> bool:
        return bool(self.seconds)


def kill_limit(measured: float, base: float, cap: float = KILL_CAP) -> float:
    """A run's kill limit from its tests' measured seconds: `base` (the configured seconds of a test
    run) at least, KILL_MARGIN times the measured time plus the start-up when that is more, and never
    beyond `cap` (or `base`, when the user asked for more)."""
    return min(max(base, KILL_MARGIN * measured + STARTUP_SECONDS), max(base, cap))


def capped(limit: float, base: float, cap: float = KILL_CAP) -> float:
    """A limit computed some other way (from a count of tests), held under the same cap."""
    return min(limit, max(base, cap))


def plan_runs(names: list[str], measured: Measured, base: float, cap: float = KILL_CAP) -> list[TestRun]:
    """The runs of one assembly's selected `names` (nearest first). Nothing measured: one run under the
    caller's limit, as before. Else fixtures kept whole where they fit (else split along their
    measured methods), packed in order into runs whose
    kill limit stays under the cap, the nearest fixture alone first when the whole costs more than
    PROBE_SECONDS. A name the baseline did not measure counts as taking the start-up time."""
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
    spent = 0.0
    for index, members in enumerate(groups.values()):
        for name in members:
            if current and spent + cost[name] > budget:
                runs.append(current)
                current, spent = [], 0.0
            current.append(name)
            spent += cost[name]
        if index == 0 and total > PROBE_SECONDS and len(groups) > 1:
            runs.append(current)    # the nearest fixture alone: a failure shows there first
            current, spent = [], 0.0
    if current:
        runs.append(current)
    return [TestRun(tuple(run), kill_limit(sum(cost[n] for n in run), base, cap), sum(cost[n] for n in run))
            for run in runs]


def _fixture_of(name: str, measured: Measured) -> str:
    """The fixture a selected name belongs to: itself when it is one (measured as one, or no method
    of it measured), else the name less its last part."""
    head = name.rsplit(".", 1)[0]
    if measured.of_name(head) is not None:
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
            split: Callable[[TestRun], list[TestRun]]) -> tuple[list[object], bool]:
    """Each run's verdict in order until one does not pass (fail fast), and whether runs were left unrun; a
    run stopped by the memory limit (run_one's second answer) is replaced by `split`'s smaller runs when it
    has any."""
    todo = list(runs)
    out: list[object] = []
    while todo:
        run = todo.pop(0)
        verdict, limited = run_one(run)
        parts = split(run) if limited else []
        if parts:
            todo = parts + todo
            continue
        out.append(verdict)
        if not passed(verdict):
            return out, bool(todo)
    return out, False
