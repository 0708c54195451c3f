"""NUnit 2 result XML (nunit-console 2.6) -> failures and exceptions."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Callable

from repotrans.execution.results import ExceptionInfo, TestFailure

EXPECTED_RE = re.compile(r"Expected:[ \t]*([^\n]*?)\s*\n\s*But was:[ \t]*([^\n]*?)\s*(?:\n|$)")
EXCEPTION_RE = re.compile(r"^([A-Za-z_][\w.`+]*(?:Exception|Error))\s*:\s*(.*)$", re.S)
FRAME_RE = re.compile(r"^\s*at\s+(.*?)(?:\s+\[0x[0-9a-f]+\])?(?:\s+in\s+(.*?))?\s*$")
NOISE = ("(wrapper ", "System.Reflection.", "System.RuntimeMethodHandle", "NUnit.Core.", "NUnit.Framework.")
MAX_FRAMES = 5
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
        frames = clean_frames(case.findtext("failure/stack-trace") or "", locate)
        expected = actual = None
        m = EXPECTED_RE.search(message)
        if m:
            expected, actual = m.group(1).strip(), m.group(2).strip()
        name = case.get("name", "")
        report.failures.append(TestFailure(name=name, message=message, expected=expected, actual=actual,
                                           stack=frames))
        if result == "Error":
            report.exceptions.append(exception_info(message, frames))
    return report


def exception_info(message: str, frames: list[str]) -> ExceptionInfo:
    """'System.X : text' (possibly with '----> Inner : text' lines) -> ExceptionInfo of the outer
    exception, its causes appended to the message as ' ---> Inner: text'."""
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


def clean_frames(stack: str, locate: Locator | None = None, limit: int = MAX_FRAMES) -> list[str]:
    """Mono stack text -> 'Ns.Type.Method (args) at File.cs:12', reflection/NUnit plumbing dropped."""
    frames = []
    for line in stack.splitlines():
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
