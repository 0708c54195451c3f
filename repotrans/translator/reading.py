"""Reading a rendered step prompt back, as the builtin policy does: the step (its heading), the Input
slot, the tool calls listed under Gathered Context and Last Command, the retrieved candidates, the
candidate shown for reflection or repair and its Test Result.

Only what the prompt shows is read; a section the step's template does not have reads as empty.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from repotrans.verdicts.results import Diagnostic, ExceptionInfo, TestFailure, TestResult
from repotrans.verdicts.status import VERDICTS
from repotrans.prompts.render import step_of

_INPUT = re.compile(r"^## Input\nJava class: `(?P<java_class>[^`]+)`\nJava method:\n```java\n(?P<java>.*?)\n```\n"
                    r"Target C# class: `(?P<target_class>[^`]+)`\n[^\n]*signature \(keep it exactly\):\n"
                    r"```csharp\n(?P<signature>.*?)\n```\n", re.M | re.S)
_CODE = re.compile(r"^## (?:Previous )?Candidate \(attempt \d+\)\n```csharp\n(?P<code>.*?)\n```\n\n## Test Result\n",
                   re.M | re.S)
_CANDIDATE = re.compile(r"^### Candidate \d+: `(?P<source>[^`]+)` -> `(?P<target>[^`]+)`$", re.M)
_CALL = re.compile(r"(?P<tool>\w+)\(")
_AMBIGUOUS = re.compile(r"find_target_class_info\(\{\"class_name\": \"(?P<name>[\w.]+)\"\}\) -> error: .*? "
                        r"ambiguous.*\(did you mean: (?P<names>[\w., ]+)\)$", re.M)
_DIAG = re.compile(r"^- (?P<code>\S+) at (?:candidate line (?P<cline>\d+)|(?P<file>.+?):(?P<line>\d+):(?P<col>\d+))"
                   r": (?P<message>.*)$")
_FAILURE = re.compile(r"^- test (?P<name>\S+) failed(?:: (?P<rest>.*))?$")
_EXPECTED = re.compile(r"^expected (?P<expected>.*), actual (?P<actual>.*)$")
_EXCEPTION = re.compile(r"^- (?P<type>[\w.`+<>\[\]]+): (?P<message>.*)$")
_HEAD = re.compile(r"^(?P<status>\w+)(?: \((?P<failed>\d+)/(?P<run>\d+) tests failed\))?(?:: (?P<reason>.*))?$")


@dataclass
class StepPrompt:
    """What one step prompt shows."""
    step: str | None
    java_class: str = ""                 # type id without the side, e.g. "org.acme.Circle"
    java_text: str = ""                  # the Java method as shown (declaration and body)
    target_class: str = ""
    target_signature: str = ""
    gathered: list[tuple[str, dict]] = field(default_factory=list)   # Gathered Context, in order
    called: list[tuple[str, dict]] = field(default_factory=list)     # Last Command, in order
    candidates: list[tuple[str, str]] = field(default_factory=list)  # (source id, target id) to keep or drop
    suggested: dict[str, list[str]] = field(default_factory=dict)    # ambiguous class name -> qualified ones
    code: str | None = None              # the candidate under reflection or repair
    result: TestResult | None = None     # its Test Result


def read_prompt(text: str) -> StepPrompt:
    out = StepPrompt(step=step_of(text))
    found = _INPUT.search(text)
    if found:
        out.java_class, out.java_text = found["java_class"], found["java"]
        out.target_class, out.target_signature = found["target_class"], found["signature"]
    out.gathered = _calls(_section(text, "Gathered Context"), r"^### \d+\. ")
    out.called = _calls(_section(text, "Last Command"), r"^\d+\. ")
    out.suggested = {m["name"]: m["names"].split(", ") for m in _AMBIGUOUS.finditer(_section(text, "Last Command"))}
    out.candidates = [(m["source"], m["target"]) for m in _CANDIDATE.finditer(_section(text, "Candidates"))]
    shown = _CODE.search(text)
    if shown:
        out.code = shown["code"]
        out.result = read_result(_section(text, "Test Result"))
    return out


def _section(text: str, title: str) -> str:
    """The body of `## title` up to the next `## ` heading outside a code block; "" without that section."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(f"## {title}")), None)
    if start is None:
        return ""
    body, fenced = [], False
    for line in lines[start + 1:]:
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            break
        body.append(line)
    return "\n".join(body)


def _calls(section: str, prefix: str) -> list[tuple[str, dict]]:
    """`tool({json args})` at the start of every line that begins with `prefix` (outside code blocks)."""
    out: list[tuple[str, dict]] = []
    decoder = json.JSONDecoder()
    fenced = False
    for line in section.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        head = re.match(prefix, line)
        if fenced or head is None:
            continue
        call = _CALL.match(line, head.end())
        if call is None:
            continue
        try:
            args, _ = decoder.raw_decode(line, call.end())
        except json.JSONDecodeError:
            continue
        if isinstance(args, dict):
            out.append((call["tool"], args))
    return out


def read_result(text: str) -> TestResult | None:
    """A TestResult from its brief() (execution.results) as the Test Result slot shows it: status, counts,
    reason, the error diagnostics, failing tests and exceptions listed; None when it is not one."""
    lines = text.strip("\n").split("\n")
    head = _HEAD.match(lines[0]) if lines else None
    if head is None or head["status"] not in VERDICTS:
        return None
    result = TestResult(status=head["status"], reason=head["reason"] or "",
                        tests_run=int(head["run"] or 0), tests_failed=int(head["failed"] or 0))
    for line in lines[1:]:
        if (m := _DIAG.match(line)) is not None:
            result.diagnostics.append(Diagnostic(
                code="" if m["code"] == "error" else m["code"], message=m["message"], file=m["file"] or "",
                line=int(m["line"] or 0), column=int(m["col"] or 0),
                candidate_line=int(m["cline"]) if m["cline"] else None))
        elif (m := _FAILURE.match(line)) is not None:
            rest = m["rest"] or ""
            pair = _EXPECTED.match(rest)
            result.failures.append(TestFailure(name=m["name"], message="" if pair else rest,
                                               expected=_none(pair["expected"]) if pair else None,
                                               actual=_none(pair["actual"]) if pair else None))
        elif (m := _EXCEPTION.match(line)) is not None and not line.startswith("- ... "):
            result.exceptions.append(ExceptionInfo(type=m["type"], message=m["message"]))
        elif line.startswith("    at ") and result.exceptions:
            result.exceptions[-1].frames.append(line.removeprefix("    at "))
    return result


def _none(text: str) -> str | None:
    return None if text == "None" else text
