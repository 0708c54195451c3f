"""Tests that cannot pass here: a test whose failure, before any change, comes from this environment (a
file or folder that is not there, a Windows path, a time zone, a server, a culture, a platform API, the
sandbox's thread limit), not from a placeholder member.

Such a test says nothing about a candidate. A candidate's failing test is run again on the untouched
baseline of the same workspace state; when both runs fail for an environmental cause the test is left out
of the verdict (counted in its reason: "judged on 90 of 112 tests; 22 fail in this environment before any
change"). A placeholder's own exception (NotImplementedException) or an assertion is never environmental,
so a test that judges a member is never left out. So is a test whose own code throws (a test indexing past
its own table, the port's build fails it too): left out only when the baseline fails it with the same
exception at the same line of the test's file, which a placeholder's NotImplementedException never is. What the baseline run found is kept per workspace state
(environment.json beside the baseline), and `doctor` lists it from its untouched run.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.verdicts.results import TestFailure
from repotrans.execution.workspace.scratch import Workspace, baseline_stamp, write_atomically

CACHE = "environment.json"
# exception type (its simple name) -> the cause it stands for
CAUSES = {
    "FileNotFoundException": "a file", "DirectoryNotFoundException": "a folder",
    "DriveNotFoundException": "a drive", "PathTooLongException": "a path",
    "UnauthorizedAccessException": "file access",
    "TimeZoneNotFoundException": "a time zone", "InvalidTimeZoneException": "a time zone",
    "CultureNotFoundException": "a culture",
    "SocketException": "a server", "WebException": "a server", "HttpRequestException": "a server",
    "SqlException": "a server", "MySqlException": "a server", "NpgsqlException": "a server",
    "DbException": "a server", "OracleException": "a server", "MongoConnectionException": "a server",
    "RedisConnectionException": "a server",
    "PlatformNotSupportedException": "the platform", "DllNotFoundException": "a native library",
    "EntryPointNotFoundException": "a native library", "COMException": "the platform",
    "Win32Exception": "the platform",
}
FILE_CAUSES = ("a file", "a folder", "a path", "a drive")
# texts that name the cause whatever the exception's type
MESSAGE_CAUSES = (
    (re.compile(r"Couldn't create thread|Thread creation failed|Resource temporarily unavailable", re.I),
     "the sandbox's thread limit"),
    (re.compile(r"Connection refused|No such host|Name or service not known|network is unreachable|"
                r"could not connect|Unable to connect", re.I), "a server"),
    (re.compile(r"time ?zone", re.I), "a time zone"),
)
# a test NUnit stopped at the per-test limit ([Timeout], the runner's DefaultTimeout: Limits.test_timeout): this
# machine's speed, the same on the untouched port, never an assertion
PER_TEST_LIMIT_RE = re.compile(r"^\s*Test exceeded Timeout value of \d+ ?ms", re.I)
PER_TEST_LIMIT = "the per-test time limit"
NOT_ENVIRONMENT = ("NotImplementedException", "AssertionException", "SuccessException")
WINDOWS_PATH_RE = re.compile(r"[A-Za-z]:\\|\\\\|\.\.\\|\w\\\w")   # C:\, \\server, ..\, a\b
EXCEPTION_NAME_RE = re.compile(r"([A-Za-z_][\w.`+]*(?:Exception|Error))\b")


def signature(failure: TestFailure) -> tuple[str, str] | None:
    """How a test failed: its exception's type and the frame it was thrown in (None: no exception, or no frame)."""
    names = EXCEPTION_NAME_RE.findall(failure.message.split(" : ", 1)[0])
    return (names[0], failure.stack[0]) if names and failure.stack else None


TEST_CODE = "the test's own code"
LIBRARY_FRAMES = ("System.", "Mono.", "Microsoft.", "NUnit.", "(wrapper")
FRAME_FILE_RE = re.compile(r" at (.+?):(\d+)(?: \(candidate line \d+\))?$")


def own_code_cause(failure: TestFailure, test_files: frozenset[str]) -> str:
    """"the test's own code (IndexOutOfRangeException at T/FooTests.cs:170)" when the exception (not an
    assertion, not a placeholder's) was thrown in one of `test_files` (paths relative to the target root)
    rather than in the port's or a library's code; "" otherwise."""
    names = [n.rsplit(".", 1)[-1] for n in EXCEPTION_NAME_RE.findall(failure.message.split("\n", 1)[0])]
    if not names or names[0] in NOT_ENVIRONMENT or "NotImplementedException" in names:
        return ""
    frame = next((f for f in failure.stack if not f.lstrip().startswith(LIBRARY_FRAMES)), None)
    m = FRAME_FILE_RE.search(frame or "")
    if m is None or m.group(1) not in test_files:
        return ""
    return f"{TEST_CODE} ({names[0]} at {m.group(1)}:{m.group(2)})"


def failure_cause(failure: TestFailure, test_files: frozenset[str]) -> str:
    """The cause a failure names (cause), else the test's own code (own_code_cause), else "" (also for a test
    that reached untranslated code: blocked_cause)."""
    if blocked_cause(failure):
        return ""
    return cause(failure.message) or own_code_cause(failure, test_files)


BLOCKED = "blocked by untranslated code"


def blocked_cause(failure: TestFailure) -> str:
    """"blocked by untranslated code (Ns.Type.Member)" when the failing test reached a placeholder: from the
    runner's own record of the call chains that reached a placeholder's guard (TestFailure.chains, where the
    runner records them; the placeholder is the first frame), else from the placeholder's exception
    (NotImplementedException) in the exception chain NUnit reports, thrown where the stack's first frame
    is; "" otherwise. Never environment, never the test's own code: the port's untranslated members."""
    chains = [c for c in getattr(failure, "chains", None) or [] if c.frames]
    if chains:
        return f"{BLOCKED} ({frame_member(chains[0].frames[0])})"
    if getattr(failure, "chains", None):            # a record cut short: a guard fired, its chain is unknown
        return f"{BLOCKED} (a placeholder)"
    names = [n.rsplit(".", 1)[-1] for n in EXCEPTION_NAME_RE.findall(failure.message)]
    if "NotImplementedException" not in names:
        return ""
    return f"{BLOCKED} ({frame_member(failure.stack[0]) if failure.stack else 'NotImplementedException'})"


def frame_member(frame: str) -> str:
    """'Ns.T.M (System.Int32 a) at f.cs:5' -> 'Ns.T.M'."""
    return frame.split(" (", 1)[0].split(" at ", 1)[0].strip()


def still_failing(candidate: str, before: str) -> bool:
    """Whether a test the candidate fails for `candidate` and the baseline for `before` cannot judge it: an
    environmental cause on the baseline, or the same exception at the same line of the test's own code (never
    a test the baseline failed in untranslated code: the candidate may be what it waits for)."""
    return bool(before) and not before.startswith(BLOCKED) and (not before.startswith(TEST_CODE) or candidate == before)


UNTOUCHED = "fails on the untouched port"


def untouched(why: str) -> str:
    """A known failure's cause as verdicts name it: "fails on the untouched port: an assertion (...)"."""
    return why if why.startswith((UNTOUCHED, NOT_RUN, FLIPS)) else f"{UNTOUCHED}: {why}"


def known_cause(known: dict[str, str], project: str, name: str) -> str | None:
    """The cause a verdict names for test `name` of `project` that `known` lists ("Project:Ns.F.T", or ":Ns.F.T"
    for the test in any project) as failing or flipping on the untouched port; None when it lists none, or the
    test waits for untranslated code there (the candidate may be what it waits for)."""
    why = known.get(f"{project}:{name}", known.get(f":{name}"))
    return None if why is None or why.startswith(BLOCKED) else untouched(why)


def write_known_failures(path: Path, known: dict[str, str]) -> Path:
    """Write tests known to fail before any change as `--known-failures` reads them (one per line:
    "Project:Ns.Fixture.Test<TAB>cause")."""
    lines = ["# tests failing on the untouched port: left out of verdicts when they fail (repotrans --known-failures)"]
    lines += [f"{key}\t{why}" for key, why in sorted(known.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_known_failures(path: Path) -> tuple[tuple[str, str], ...]:
    """A `--known-failures` file: one test a line ("Project:Ns.Fixture.Test", a tab and why; a bare
    "Ns.Fixture.Test" names it in any project), '#' comments. ConfigError naming the line when malformed."""
    from repotrans.errors import ConfigError

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"--known-failures: cannot read {path}: {exc.strerror}") from None
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, tab, why = line.partition("\t")
        key = key.strip()
        if not key or (" " in key and not tab):       # a case's name may hold spaces ('M("a b")'): then a tab
            raise ConfigError(f"--known-failures: {path}:{n}: expected 'Project:Ns.Fixture.Test<TAB>why', got {line!r}")
        found.append((key if ":" in key else ":" + key, why.strip() or "listed in " + path.name))
    return tuple(found)


def before_any_change(failure: TestFailure, test_files: frozenset[str] = frozenset()) -> str:
    """What a failure on the untouched port comes from: untranslated code it reached (blocked_cause), its
    environmental cause, the test's own code, else the assertion or exception it shows ("an assertion
    (Assert.IsFalse failed.)")."""
    found = blocked_cause(failure) or failure_cause(failure, test_files)
    if found:
        return found
    first = (failure.message.strip().splitlines() or [""])[0].strip()[:100]
    return f"an assertion ({first})" if failure.expected is not None or not EXCEPTION_NAME_RE.match(first) \
        else f"an exception ({first})"


def cause(message: str) -> str:
    """The environmental cause a failure's message names ("a time zone"), or "" when it names none
    (an assertion, a placeholder's NotImplementedException, any other exception)."""
    names = [n.rsplit(".", 1)[-1] for n in EXCEPTION_NAME_RE.findall(message)]
    if not names and PER_TEST_LIMIT_RE.search(message):     # NUnit stopped it: no exception, no assertion
        return PER_TEST_LIMIT
    if not names or names[0] in NOT_ENVIRONMENT or any(n == "NotImplementedException" for n in names):
        return ""
    for name in names:                          # the outer exception, then its inner ones
        if name in CAUSES:
            what = CAUSES[name]
            return "a Windows path" if what in FILE_CAUSES and WINDOWS_PATH_RE.search(message) else what
    for pattern, what in MESSAGE_CAUSES:
        if pattern.search(message):
            return what
    return ""


@dataclass
class Environment:
    """What the baseline of one workspace state says of tests that failed with a candidate: test key
    ("Project:Ns.Fixture.Test") -> the cause of its failure before any change ("" when it passed there or
    failed for another reason)."""
    stamp: float
    tests: dict[str, str] = field(default_factory=dict)

    def unknown(self, keys: list[str]) -> list[str]:
        return [k for k in keys if k not in self.tests]

    def failing(self) -> dict[str, str]:
        return {k: v for k, v in self.tests.items() if v}


def load(ws: Workspace) -> Environment:
    """The workspace state's record (empty when the baseline was sealed again since)."""
    stamp = baseline_stamp(ws)
    try:
        data = json.loads((ws.root / CACHE).read_text())
    except (OSError, ValueError):
        return Environment(stamp)
    if data.get("stamp") != stamp:
        return Environment(stamp)
    return Environment(stamp, dict(data.get("tests", {})))


def save(ws: Workspace, found: dict[str, str]) -> Environment:
    """Add what a baseline run found (merged with what another process found meanwhile)."""
    current = load(ws)
    current.tests.update(found)
    write_atomically(ws.root / CACHE, json.dumps({"stamp": current.stamp, "tests": current.tests}))
    return current


def suspects(project: str, failures: list[TestFailure], test_files: frozenset[str] = frozenset(),
             not_run: dict[str, str] | None = None) -> dict[str, str]:
    """Key -> cause of the failing tests whose failure names an environmental cause or lies in the test's own
    code, and of the selected tests that did not run (`not_run`: name -> "Ignored: why"): worth a baseline run."""
    found = {f"{project}:{f.name}": failure_cause(f, test_files) for f in failures}
    found.update({f"{project}:{name}": did_not_run(why) for name, why in (not_run or {}).items()})
    return {k: v for k, v in found.items() if v}


NOT_RUN = "does not run here"
FLIPS = "flips on the untouched port"     # a flaky test: left out of every verdict, passing or failing
# a test a candidate's run failed that the untouched port failed too, run beside the same tests (toolchains.mono_test)
FAILS_BESIDE = f"{FLIPS} (failed with the candidate and without it, beside the same tests)"


def flips(first: str, then: str) -> str:
    """The cause of a test whose outcome changed when the untouched port ran it again in another order."""
    return f"{FLIPS} ({first}, then {then} when run again in another order)"


def did_not_run(why: str) -> str:
    """The cause of a selected test that ended without running ("Ignored: no such drive"): a fact about the
    place it runs in when the untouched port does not run it either."""
    return f"{NOT_RUN} ({why})"


def summary(excluded: int | dict[str, str], run: int) -> str:
    """The verdict's note on tests left out (`excluded`: their count, or key -> cause, which tells the tests
    that fail here from those that do not run here)."""
    causes = list(excluded.values()) if isinstance(excluded, dict) else [""] * excluded
    if not causes:
        return ""
    return f"judged on {run} of {run + len(causes)} tests; " + _kinds(causes)


def _kinds(causes: list[str]) -> str:
    """'1 fail in this environment before any change, 2 flip on the untouched port (flaky)': left-out tests
    counted by why."""
    idle = sum(1 for why in causes if NOT_RUN in why)
    flaky = sum(1 for why in causes if FLIPS in why)
    failing = len(causes) - idle - flaky
    parts = ([f"{failing} fail in this environment before any change"] if failing else []) + \
        ([f"{idle} did not run, as on the untouched port"] if idle else []) + \
        ([f"{flaky} flip on the untouched port (flaky)"] if flaky else [])
    return ", ".join(parts)


def nothing_left(left_out: dict[str, str]) -> str:
    """Why no test could judge: every covering test fails here before any change."""
    return f"every covering test fails in this environment before any change: {len(left_out)}: {describe(left_out)}"


def left_out_note(left_out: dict[str, str]) -> str:
    """' (3 more covering tests left out: 2 fail in this environment before any change, 1 flip on the untouched
    port (flaky))' for a dataset drop's reason, counted by why."""
    return f" ({len(left_out)} more covering tests left out: {_kinds(list(left_out.values()))})" if left_out else ""


def describe(causes: dict[str, str], limit: int = 3) -> str:
    """'2 a time zone, 1 a server (Ns.F.T1, Ns.F.T2, ...)' for a doctor line."""
    counts: dict[str, int] = {}
    for what in causes.values():
        counts[what] = counts.get(what, 0) + 1
    names = [k.split(":", 1)[-1] for k in sorted(causes)]
    text = ", ".join(f"{n} {what}" for what, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return text + f" ({', '.join(names[:limit])}{', ...' if len(names) > limit else ''})"


def path_of(ws: Workspace) -> Path:
    return ws.root / CACHE
