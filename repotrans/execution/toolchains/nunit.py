"""NUnit 2 results -> failures and exceptions: the result XML of nunit-console 2.6, and the tagged
report of repotrans's own runner (nunit_runner.cs), checked against the tests it was asked to run."""
from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from repotrans.verdicts.results import ExceptionInfo, TestFailure

EXPECTED_RE = re.compile(r"Expected:[ \t]*([^\n]*?)\s*\n\s*But was:[ \t]*([^\n]*?)\s*(?:\n|$)")
EXCEPTION_RE = re.compile(r"^([A-Za-z_][\w.`+]*(?:Exception|Error))\s*:\s*(.*)$", re.S)
FRAME_RE = re.compile(r"^\s*at\s+(.*?)(?:\s+\[0x[0-9a-f]+\])?(?:\s+in\s+(.*?))?\s*$")
NOISE = ("(wrapper ", "System.Reflection.", "System.RuntimeMethodHandle", "NUnit.Core.", "NUnit.Framework.",
         "Microsoft.VisualStudio.TestTools.UnitTesting.")                  # the MSTest layer's asserts
MAX_FRAMES = 5
SITE_RE = re.compile(r"^(?:SetUp|TearDown|TestFixtureSetUp|TestFixtureTearDown|OneTimeSetUp|OneTimeTearDown)\s*:\s*"
                     r"(?=[A-Za-z_][\w.`+]*(?:Exception|Error)\s*:)")
INNER_EXCEPTION_RE = re.compile(r"--[A-Za-z_][\w.`]*")      # NUnit: "--NotImplementedException"
# nunit-console copies messages verbatim: a control character in one makes the file malformed XML.
XML_ILLEGAL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass
class TestReport:
    """What a test result file says, whatever wrote it (NUnit 2 XML, TRX)."""
    __test__ = False
    total: int = 0
    failures: list[TestFailure] = field(default_factory=list)
    exceptions: list[ExceptionInfo] = field(default_factory=list)
    passed: int = 0


Locator = Callable[[str, int], str]     # (source path, line) -> how a frame shows it


def parse_nunit2(xml_text: str, locate: Locator | None = None) -> TestReport:
    """Parse a TestResult.xml written by nunit-console 2.6; `locate` rewrites frame locations."""
    root = ET.fromstring(XML_ILLEGAL_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", xml_text))
    report = TestReport()
    for case in root.iter("test-case"):
        if case.get("executed") != "True":
            continue
        report.total += 1
        result = case.get("result", "")
        if result == "Success":
            report.passed += 1
            continue
        if result in ("Ignored", "Inconclusive", "Skipped", "NotRunnable") and case.get("success") != "False":
            continue
        message = (case.findtext("failure/message") or case.findtext("reason/message") or "").strip()
        stack = case.findtext("failure/stack-trace") or ""
        frames = clean_frames(stack, locate)
        expected = actual = None
        m = EXPECTED_RE.search(message)
        if m:
            expected, actual = m.group(1).strip(), m.group(2).strip()
        name = case.get("name", "")
        report.failures.append(TestFailure(name=name, message=message, expected=expected, actual=actual,
                                           stack=frames, wrapped_at=wrapper_sites(stack, locate)))
        if result == "Error":
            report.exceptions.append(exception_info(message, frames))
    return report


def exception_info(message: str, frames: list[str]) -> ExceptionInfo:
    """'System.X : text' (possibly with '----> Inner : text' lines) -> ExceptionInfo of the outer
    exception, its causes appended to the message as ' ---> Inner: text'. NUnit's word for where it was
    thrown ('SetUp : System.X : text', also every test of a fixture whose one-time set-up threw) is not its
    type."""
    message = SITE_RE.sub("", message.strip(), count=1)
    parts = [p.strip() for p in re.split(r"\n\s*---->\s*", message.strip()) if p.strip()]
    if not parts:
        return ExceptionInfo(type="", message="", frames=frames)
    heads = [EXCEPTION_RE.match(p) for p in parts]
    if heads[0] is None:
        return ExceptionInfo(type="", message=message.strip(), frames=frames)
    text = heads[0].group(2).strip()
    for m, part in zip(heads[1:], parts[1:]):
        text += f" ---> {m.group(1)}: {m.group(2).strip()}" if m else f" ---> {part}"
    return ExceptionInfo(type=heads[0].group(1), message=text, frames=frames)


def _segments(stack: str) -> list[list[str]]:
    """NUnit's stack text split per exception of the chain, outermost first (an inner exception's
    frames follow a '--InnerException' line)."""
    segments: list[list[str]] = [[]]
    for line in stack.splitlines():
        if INNER_EXCEPTION_RE.fullmatch(line.strip()):
            segments.append([])
        else:
            segments[-1].append(line)
    return segments


def wrapper_sites(stack: str, locate: Locator | None = None) -> list[str]:
    """The frame where each exception wrapping the innermost one was thrown, innermost wrapper first."""
    sites = []
    for segment in reversed(_segments(stack)[:-1]):
        frames = clean_frames("\n".join(segment), locate, limit=1)
        if frames:
            sites.append(frames[0])
    return sites


def clean_frames(stack: str, locate: Locator | None = None, limit: int = MAX_FRAMES) -> list[str]:
    """Mono stack text -> 'Ns.Type.Method (args) at File.cs:12', reflection/NUnit plumbing dropped.
    NUnit appends an inner exception's frames after a '--InnerException' line: the innermost
    exception's frames come first, so frames[0] is where the first exception was thrown (inside a
    static initializer behind a TypeInitializationException, say)."""
    frames = []
    for line in (line for segment in reversed(_segments(stack)) for line in segment):
        m = FRAME_RE.match(line)
        if not m or any(m.group(1).startswith(n) for n in NOISE):
            continue
        where = m.group(2) or ""
        frame = m.group(1)
        path, _, line = where.rpartition(":")
        if path and not path.startswith("<") and line.isdigit():
            frame += " at " + (locate(path, int(line)) if locate else f"{path.rsplit('/', 1)[-1]}:{line}")
        frames.append(frame)
        if len(frames) >= limit:
            break
    return frames


# -- repotrans's own runner (nunit_runner.cs): tagged lines on its stdout -----------------------
RUNNER_SOURCE = Path(__file__).with_name("nunit_runner.cs")
NOT_RUN_STATES = ("Ignored", "Skipped", "Inconclusive", "NotRunnable", "Cancelled")


@dataclass
class RunnerReport:
    """What the runner said, lines tagged with the nonce only."""
    planned: list[tuple[str, str]] = field(default_factory=list)    # (declared run state, test name)
    suites: dict[str, list[str]] = field(default_factory=dict)    # test name -> the suites above it
    tests: list[tuple[str, str, str, str]] = field(default_factory=list)   # (result state, name, message, stack)
    crash: str = ""
    unhandled: list[str] = field(default_factory=list)
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (test name, the attribute that leaves it out)
    seconds: dict[str, float] = field(default_factory=dict)   # test name -> the seconds NUnit measured it ran
    started: int | None = None
    ended: int | None = None
    stopped: bool = False           # a fail-fast run stopped after its first failing test (STOPPED)


def end_marker(nonce: str) -> bytes:
    return f"@@RT {nonce} END ".encode()


def parse_runner(stdout: str, nonce: str) -> RunnerReport:
    """The runner's lines carrying `nonce`; anything else on stdout (test output) is ignored."""
    prefix = f"@@RT {nonce} "
    report = RunnerReport()
    for line in stdout.splitlines():
        if not line.startswith(prefix):
            continue
        kind, _, rest = line[len(prefix):].partition(" ")
        fields = rest.split(" ")
        try:
            if kind == "PLAN":
                report.planned.append((fields[0], _b64(fields[1])))
                report.suites[_b64(fields[1])] = _b64(fields[2]).split("\n") if len(fields) > 2 else []
            elif kind == "TEST":
                report.tests.append((fields[0], _b64(fields[1]), _b64(fields[2]), _b64(fields[3])))
                if len(fields) > 4:
                    report.seconds[_b64(fields[1])] = float(fields[4])
            elif kind == "CRASH":
                report.crash = _b64(fields[0])
            elif kind == "EXCLUDED":
                report.excluded.append((_b64(fields[0]), _b64(fields[1]) if len(fields) > 1 else ""))
            elif kind == "UNHANDLED":
                report.unhandled.append(_b64(fields[0]))
            elif kind == "START":
                report.started = int(fields[0])
            elif kind == "END":
                report.ended = int(fields[0])
            elif kind == "STOPPED":
                report.stopped = True
        except (IndexError, ValueError, binascii.Error):
            report.crash = report.crash or f"malformed runner line: {line[:200]}"
    return report


def check_runner(report: RunnerReport, selected: list[str] | None) -> tuple[str, str]:
    """("", "") when the report is whole and matches the selection; else (status, reason):
    runtime_error for any mismatch (names, counts, a test that did not run), no_tests when the
    selection holds no test that can run."""
    planned = sorted(name for _, name in report.planned)
    reported = sorted(name for _, name, _, _ in report.tests)
    if report.crash:
        return "runtime_error", f"test runner failed: {_first_line(report.crash)}"
    # a stopped run left its later tests unreported, and only after one failed: never a pass
    stopped = report.stopped and set(reported) <= set(planned) and len(set(reported)) == len(reported) and \
        any(state in ("Failure", "Error") for state, _, _, _ in report.tests)
    if report.started != len(planned) or report.ended != len(reported) or (planned != reported and not stopped):
        missing = sorted(set(planned) - set(reported))
        extra = sorted(set(reported) - set(planned))
        detail = (f"missing {', '.join(missing[:3])}" if missing else f"unexpected {', '.join(extra[:3])}"
                  if extra else f"{len(reported)} results for {len(planned)} planned tests")
        return "runtime_error", f"test report does not match the tests run: {detail}"
    if selected is not None:
        picked = frozenset(selected)
        strays = [n for n in reported if not any(covered_by(picked, m) for m in [n, *report.suites.get(n, [])])]
        if strays:
            return "runtime_error", f"test report names tests outside the selection: {', '.join(strays[:3])}"
    skipped = not_run(report)
    if skipped:
        name, why = next(iter(skipped.items()))
        return "runtime_error", f"{len(skipped)} selected test(s) did not run ({name}: {why})"
    ran = {name for state, name, _, _ in report.tests if state not in NOT_RUN_STATES}
    if not ran and not planned and report.excluded:
        return "no_tests", f"every selected test is one the suite says not to run: {left_out_by(report.excluded)}"
    if not ran:
        return "no_tests", ("no selected test can run" if planned else "the selection matched no test") + (
            f" ({', '.join(sorted({s for s, _ in report.planned}))})" if planned else "")
    return "", ""


def left_out_by(excluded: list[tuple[str, str]]) -> str:
    """'2 [Explicit], 1 [Category("Integration")] on Ns.F (Ns.F.A, Ns.F.B, ...)': tests the suite leaves out."""
    counts: dict[str, int] = {}
    for _, why in excluded:
        counts[why] = counts.get(why, 0) + 1
    names = sorted(name for name, _ in excluded)
    return ", ".join(f"{n} {why}" for why, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) + \
        f" ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''})"


def never_run_note(excluded: dict[str, str]) -> str:
    """'; never run, the suite says not to: 1 [Explicit] (Ns.F.T)': the selected tests ("Project:Ns.F.T" -> the
    attribute) a run left out by the suite's own attributes, for the selection's description."""
    if not excluded:
        return ""
    return "; never run, the suite says not to: " + left_out_by([(k.split(":", 1)[-1], why)
                                                                for k, why in sorted(excluded.items())])


def not_run(report: RunnerReport) -> dict[str, str]:
    """The tests planned to run that ended without running (Assert.Ignore or Inconclusive at run time, a
    skipped case): runner test name -> "Ignored: its message". A fact about where they ran, judged against
    the untouched port's run of the same tests (toolchains.environment), never alone a verdict on a body."""
    runnable = {name for state, name in report.planned if state == "Runnable"}
    return {name: f"{state}: {_first_line(message) or state.lower()}" for state, name, message, _ in report.tests
            if name in runnable and state in NOT_RUN_STATES}


def runner_test_report(report: RunnerReport, locate: Locator | None = None) -> TestReport:
    """The executed tests as a TestReport (the same evidence parse_nunit2 gives)."""
    out = TestReport()
    for state, name, message, stack in report.tests:
        if state in NOT_RUN_STATES:
            continue
        out.total += 1
        if state == "Success":
            out.passed += 1
            continue
        frames = clean_frames(stack, locate)
        expected = actual = None
        m = EXPECTED_RE.search(message)
        if m:
            expected, actual = m.group(1).strip(), m.group(2).strip()
        out.failures.append(TestFailure(name=name, message=message.strip(), expected=expected, actual=actual,
                                        stack=frames, wrapped_at=wrapper_sites(stack, locate)))
        if state == "Error":
            out.exceptions.append(exception_info(message, frames))
    for text in report.unhandled:
        head = text.strip().splitlines()[0] if text.strip() else ""
        out.exceptions.append(exception_info(head, clean_frames(text, locate)))
    return out


def covers(selected: str, name: str) -> bool:
    """A selected fixture or method ("Ns.Fixture", "Ns.Fixture.Method") covers a reported test name
    (the method, a case "Method(1)", or a test of the fixture or of a parameterised "Fixture(1)")."""
    return name == selected or name.startswith((selected + ".", selected + "("))


_CUTS = re.compile(r"[.(]")            # where a reported name's fixture or method name may end


def covering_names(name: str) -> list[str]:
    """Every selected name that covers the reported test `name` (as `covers`): the name and its prefixes
    ending before a "." or "("."""
    return [name, *(name[:cut.start()] for cut in _CUTS.finditer(name))]


def covered_by(selected: frozenset[str], name: str) -> bool:
    """Whether a name of `selected` covers the reported test `name` (as `covers`), looked up by the name's
    covering names: as fast for a selection of thousands as for one."""
    return any(key in selected for key in covering_names(name))


def _b64(text: str) -> str:
    return base64.b64decode(text, validate=True).decode("utf-8", "replace")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:300] if text.strip() else ""
