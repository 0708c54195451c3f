"""The outcome of running one candidate: a status plus exact, compact evidence.

Everything here is plain data (JSON-able through `to_json`). `brief()` renders the part a
reflection prompt needs: first diagnostics with their candidate line, failing tests with
expected/actual, exceptions with top frames.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from repotrans.verdicts.status import Status, check_verdict
from repotrans.redact import redact, secrets_in_env

LOG_TAIL_CHARS = 4000
RUNNER_LINE = "@@RT "        # how the test runner's protocol lines start (execution.toolchains.nunit)
BRIEF_LIMIT = 8          # items of each kind shown by brief()
TRANSLATED_TESTS, PORT_TESTS, NO_TESTS_RUN = "translated tests", "port tests", "no tests"   # TestResult.judged_by


@dataclass
class Diagnostic:
    code: str                      # "CS1525"; "" when the compiler gave none
    message: str
    file: str                      # path relative to the target root
    line: int
    column: int
    candidate_line: int | None = None   # line within the candidate code, when it came from there
    severity: str = "error"        # "error" | "warning"


@dataclass
class TestFailure:
    __test__ = False               # not a pytest class
    name: str                      # fully qualified test name
    message: str
    expected: str | None = None
    actual: str | None = None
    stack: list[str] = field(default_factory=list)   # top frames
    # where each exception wrapping the first one was thrown, innermost wrapper first (the runtime's trace
    # as NUnit prints an inner-exception chain, never a message): a placeholder's exception that the port's
    # own code wraps still blocks; one the candidate wraps does not (execution.judge.blocked)
    wrapped_at: list[str] = field(default_factory=list)
    # the call chains through which the test reached a placeholder, as the runner recorded them itself when its
    # guard fired (toolchains.guards, nunit_chain.cs); never read from the test's report (execution.judge.chain)
    chains: list["Chain"] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.chains = [c if isinstance(c, Chain) else Chain(**c) for c in self.chains]


@dataclass
class Chain:
    """One call chain that reached a placeholder's guard, recorded by the runner."""
    frames: list[str]              # innermost first: the member whose guard fired, then its callers ('T.M (args) at f:l')
    complete: bool = True          # on the test's own thread, down to the test framework; False: who led there is unknown


@dataclass
class ExceptionInfo:
    type: str                      # "System.NullReferenceException"
    message: str
    frames: list[str] = field(default_factory=list)  # top frames, innermost first


@dataclass
class TestResult:
    __test__ = False
    status: Status
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failures: list[TestFailure] = field(default_factory=list)
    exceptions: list[ExceptionInfo] = field(default_factory=list)
    tests_run: int = 0
    tests_failed: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    log_tail: str = ""
    reason: str = ""               # one line: why this status ("out of memory", "exceeded 10 s")
    selected: list[str] = field(default_factory=list)   # tests run: "<project>:<Ns.Fixture>" or "<project>:<Ns.Fixture.Method>"
    selection: str = ""            # one line: what was selected and why (a bounded fallback is named here)
    trust: str = ""                # "trust: reduced (...)" when the Java original granted a capability
    translated: list[str] = field(default_factory=list)   # selected tests translated from JUnit by repotrans
    # how the candidate was built: "" alone (the per-candidate path), "batched: ..." (one compile for several
    # candidates behind switches, execution.judge.batching) or "alone: <why batching was not sound for it>"
    judge: str = ""
    # covering tests left out because they fail in this environment before any change ("Project:Ns.F.T" -> cause)
    left_out: dict[str, str] = field(default_factory=dict)
    # blocked: the placeholder members (target method ids) the failing tests stopped in, from the runner's record
    # of the call chain; partial: those the left-out tests stopped in (members this run leaves untranslated)
    behind: list[str] = field(default_factory=list)
    # the tasks (ids) judged partial past this member's placeholder: their verdict rests on this task's failure
    holds_up: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_verdict(self.status)

    def judged_by(self) -> str:
        """Whose tests the verdict rests on: "translated tests" when any selected test was translated
        from JUnit by repotrans, "port tests" when only the port's own ran, "no tests" otherwise."""
        if self.translated:
            return TRANSLATED_TESTS
        return PORT_TESTS if self.selected or self.tests_run else NO_TESTS_RUN

    def to_json(self) -> dict:
        return {**asdict(self), "judged_by": self.judged_by()}

    def redacted(self) -> "TestResult":
        """A copy with the configured API key replaced in every text (repotrans.redact)."""
        secrets = secrets_in_env()
        if not secrets:
            return self
        return TestResult.from_json(_redact_json(self.to_json(), secrets))

    @classmethod
    def from_json(cls, data: dict) -> "TestResult":
        return cls(
            status=data["status"],
            diagnostics=[Diagnostic(**d) for d in data.get("diagnostics", [])],
            failures=[TestFailure(**f) for f in data.get("failures", [])],
            exceptions=[ExceptionInfo(**e) for e in data.get("exceptions", [])],
            tests_run=data.get("tests_run", 0),
            tests_failed=data.get("tests_failed", 0),
            timings=dict(data.get("timings", {})),
            log_tail=data.get("log_tail", ""),
            reason=data.get("reason", ""),
            selected=list(data.get("selected", [])),
            selection=data.get("selection", ""),
            trust=data.get("trust", ""),
            translated=list(data.get("translated", [])),
            judge=data.get("judge", ""),
            left_out=dict(data.get("left_out", {})),
            behind=list(data.get("behind", [])),
            holds_up=list(data.get("holds_up", [])),
        )

    def evidence(self) -> str:
        """Everything the verdict says but its timings, log and how it was built, as one text to compare
        two judgings of a candidate by; a scratch run folder's random name (/runs/<id>/) made equal."""
        return re.sub(r"/runs/[0-9a-f]{12}/", "/runs/*/", repr((
            self.status, self.reason, [asdict(d) for d in self.diagnostics], [asdict(f) for f in self.failures],
            [asdict(e) for e in self.exceptions], self.tests_run, self.tests_failed, self.selected,
            self.selection, self.trust, self.translated)))

    def brief(self) -> str:
        """Compact text for a prompt: status line, then the evidence that explains it."""
        head = self.status
        if self.tests_run:
            head += f" ({self.tests_failed}/{self.tests_run} tests failed)"
        if self.reason:
            head += f": {self.reason}"
        lines = [head]
        errors = [d for d in self.diagnostics if d.severity == "error"]
        for d in errors[:BRIEF_LIMIT]:
            where = (f"candidate line {d.candidate_line}" if d.candidate_line is not None
                     else f"{d.file}:{d.line}:{d.column}")
            lines.append(f"- {d.code or 'error'} at {where}: {d.message}")
        for f in self.failures[:BRIEF_LIMIT]:
            text = f"- test {f.name} failed"
            if f.expected is not None or f.actual is not None:
                text += f": expected {f.expected}, actual {f.actual}"
            elif f.message:
                text += f": {_one_line(f.message)}"
            lines.append(text)
        for e in self.exceptions[:BRIEF_LIMIT]:
            lines.append(f"- {e.type}: {_one_line(e.message)}")
            lines.extend(f"    at {frame}" for frame in e.frames[:3])
        hidden = max(0, len(errors) - BRIEF_LIMIT) + max(0, len(self.failures) - BRIEF_LIMIT)
        if hidden:
            lines.append(f"- ... {hidden} more")
        return "\n".join(lines)


def _redact_json(value, secrets: list[str]):
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, list):
        return [_redact_json(v, secrets) for v in value]
    if isinstance(value, dict):
        return {k: _redact_json(v, secrets) for k, v in value.items()}
    return value


def tail(text: str, limit: int = LOG_TAIL_CHARS) -> str:
    """The last `limit` characters of a log, cut at a line start, without the test runner's protocol
    lines (RUNNER_LINE: base64 records the toolchain reads, not for people)."""
    if RUNNER_LINE in text:
        text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith(RUNNER_LINE))
    if len(text) <= limit:
        return text
    cut = text[-limit:]
    newline = cut.find("\n")
    return cut[newline + 1:] if 0 <= newline < 200 else cut


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
