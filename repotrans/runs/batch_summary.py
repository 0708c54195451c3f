"""The end of a batch: its counts and a pytest-style closing summary.

Every failed, blocked and errored task gets one line with its reason (runs.causes: the first
real assertion, compiler error or task error; for a blocked task the member it waits for), then the
counts, the whole-suite line worded by what it found, the tokens, the model calls with what the
small-model rules did (agents.progress: fallbacks, requests and candidates not repeated), why
the batch stopped early, and the untranslated members to write first (runs.translate_first).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from repotrans.execution.toolchains.api import BLOCKED as BLOCKED_CAUSE
from repotrans.verdicts.status import BLOCKED, ERROR, NO_TESTS, PARTIAL
from repotrans.runs.causes import cause_of
from repotrans.runs.economy import Economy
from repotrans.runs.store import TaskRecord, port_records, reduced_trust, translated_records, trust_categories
from repotrans.runs.translate_first import render_lines, translate_first
from repotrans.runs.whole_suite import whole_suite_line

_LABEL = {ERROR: "ERROR", BLOCKED: "BLOCKED", NO_TESTS: "NO TEST", PARTIAL: "PARTIAL"}   # else that did not pass: FAILED
_ORDER = {"FAILED": 0, "ERROR": 1, "NO TEST": 2, "BLOCKED": 3, "PARTIAL": 4}


@dataclass
class BatchSummary:
    tasks: int
    passed: int
    compiled: int
    failed: int                 # finished without passing: neither blocked, nor without a test run, nor a task error
    errors: int
    blocked: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    together: dict = field(default_factory=dict)   # whole-suite check (runs.whole_suite)
    written: list[str] = field(default_factory=list)     # task ids spliced into the port (--write)
    write: dict = field(default_factory=dict)             # per file: members and sha256 written; skipped members
    write_refused: str = ""     # why --write/--patch wrote nothing ("" = it wrote, or was not asked)
    withheld: list = field(default_factory=list)   # [task id, why] weaker verdicts --write/--patch held back
    problems: list[list[str]] = field(default_factory=list)   # [label, task id, one-line reason]
    not_run: int = 0            # tasks left when the batch stopped early
    stopped: str = ""           # why the batch stopped early ("" = it ran to the end)
    interrupted: bool = False   # stopped by Ctrl-C
    estimated_tokens: bool = False    # the offline policy counts words, not tokens
    translated: int = 0         # tasks judged with tests translated from JUnit: not in passed/failed/...
    translated_passed: int = 0
    no_tests: int = 0           # compiled, but no selected test could run: nothing judged, neither passed nor failed
    partial: int = 0            # passed on the tests that could run, others left out behind untranslated members
    reduced_trust: int = 0      # verdicts that ran with a capability their Java original reaches (IL policy)
    trust_categories: list = field(default_factory=list)   # the capabilities those verdicts ran with
    model_calls: int = 0
    fallbacks: dict = field(default_factory=dict)   # step -> tasks where it took its default (agents.progress)
    identical_requests_avoided: int = 0             # requests not sent: answered before in the same step
    repeated_candidates_avoided: int = 0            # candidates not compiled or tested again
    first: list = field(default_factory=list)       # translate these first (runs.translate_first, as JSON)
    baseline: dict = field(default_factory=dict)    # the untouched port's baseline (judge.baseline's facts)
    written_since: list = field(default_factory=list)   # task ids written in the port since (no longer tasks)

    @classmethod
    def of(cls, tasks: int, records: list[TaskRecord], **kw) -> "BatchSummary":
        problems = sorted(([_LABEL.get(r.status, "FAILED"), r.task_id,
                            ("[translated tests] " if r.translated_verdict else "") + cause_of(r).line]
                           for r in records if not r.passed), key=lambda p: (_ORDER[p[0]], p[1]))
        port, translated = port_records(records), translated_records(records)
        economy = Economy.of(records)
        return cls(model_calls=economy.model_calls, fallbacks=economy.fallbacks,
                   identical_requests_avoided=economy.identical_requests_avoided,
                   repeated_candidates_avoided=economy.repeated_candidates_avoided,
                   tasks=tasks, passed=sum(r.passed for r in port), compiled=sum(r.compiled for r in records),
                   failed=sum(p[0] == "FAILED" and not p[2].startswith("[translated tests]") for p in problems),
                   errors=sum(r.status == ERROR for r in port), blocked=sum(r.status == BLOCKED for r in port),
                   partial=sum(r.partial for r in port),
                   no_tests=sum(r.status == NO_TESTS for r in port), translated=len(translated), translated_passed=sum(r.passed for r in translated),
                   reduced_trust=len(reduced_trust(records)), trust_categories=trust_categories(records),
                   prompt_tokens=sum(r.prompt_tokens for r in records),
                   completion_tokens=sum(r.completion_tokens for r in records), problems=problems,
                   not_run=tasks - len(records), first=[b.to_json() for b in translate_first(port)], **kw)

    def counts_line(self) -> str:
        parts = [f"{self.passed} passed", *([f"{self.partial} partial"] if self.partial else []),
                 f"{self.failed} failed", f"{self.blocked} blocked", f"{self.errors} error{'s' * (self.errors != 1)}"]
        if self.no_tests:
            parts.append(f"{self.no_tests} without a test run")
        if self.translated:
            parts.append(f"{self.translated} judged by translated tests ({self.translated_passed} passed)")
        if self.not_run:
            parts.append(f"{self.not_run} not run")
        return f"{', '.join(parts)} of {self.tasks} tasks in {self.seconds:.1f} s"

    def render(self, width: int = 100) -> str:
        lines = []
        if self.problems:
            lines.append(_rule("short task summary", width))
            lines += [_clip(f"{label:<7} {task} - {' '.join(reason.split())}", width)
                      for label, task, reason in self.problems]
        lines.append(_rule(self.counts_line(), width))
        if self.baseline:
            lines.append(baseline_line(self.baseline))
        if not self.stopped or self.together:
            lines.append(whole_suite_line(self.together))
            for task in self.together.get("fail_together", []):
                lines.append(f"  passed alone, fails together: {task}")
        note = " (estimated: the offline builtin policy counts words)" if self.estimated_tokens else ""
        lines.append(f"tokens: {self.prompt_tokens} prompt + {self.completion_tokens} completion{note}")
        economy = Economy(self.tasks - self.not_run, self.model_calls, self.fallbacks,
                          self.identical_requests_avoided, self.repeated_candidates_avoided)
        if economy.any or self.model_calls:
            lines.append(economy.line())
        if self.reduced_trust:
            lines.append(f"reduced trust: {self.reduced_trust} verdict(s) ran their tests with a capability their Java "
                         f"original reaches, allowed by the IL policy: {', '.join(self.trust_categories) or 'none named'}; "
                         "such a pass is written only with --write-reduced-trust")
        if self.partial:
            lines.append(f"partial: {self.partial} task(s) passed only on the covering tests that could run (the others "
                         "stop in members this run leaves untranslated): not passes, written only with --write-partial")
        lines += self.write_lines()
        if self.written_since:
            lines.append(f"written in the port since the run planned them (no longer its tasks, not counted): "
                         f"{len(self.written_since)}: " + ", ".join(self.written_since[:4])
                         + (", ..." if len(self.written_since) > 4 else ""))
        if self.stopped:
            lines.append(f"stopped early: {self.stopped}")
        lines += render_lines(self.first)
        return "\n".join(lines)


    def write_lines(self) -> list[str]:
        """What --write put into the port, file by file, what it skipped, or why it wrote nothing."""
        held = [f"  not written: {task} ({why})" for task, why in self.withheld]
        patch_only = bool((self.write or {}).get("patch")) and not (self.write or {}).get("into_port", True)
        if self.write_refused:
            where = "the patch" if patch_only else "written into the target"
            return [f"{where}: nothing ({self.write_refused})", *held]
        files = (self.write or {}).get("files", {})
        lines = []
        if patch_only and files:            # --patch alone: the port is untouched, the patch holds the members
            count = sum(len(f["members"]) for f in files.values())
            lines.append(f"the patch {self.write['patch']}: {count} member{'s' * (count != 1)} in {len(files)} "
                         f"file{'s' * (len(files) != 1)} (the port is untouched; `git apply` it)")
            lines += [f"  {rel}: {', '.join(f['members'])}" for rel, f in sorted(files.items())]
        if self.written:
            lines.append(f"written into the target: {len(self.written)} member{'s' * (len(self.written) != 1)} "
                         f"in {len(files)} file{'s' * (len(files) != 1)}")
            lines += [f"  {rel}: {', '.join(f['members'])}" for rel, f in sorted(files.items())]
            created = [(rel, c) for rel, f in sorted(files.items()) for c in f.get("created", [])]
            if created:
                lines.append(f"created alongside (no task; each came with a passing candidate): {len(created)}")
                lines += [f"  {rel}: {c}" for rel, c in created]
        lines += [f"  not written: {task} ({why})" for task, why in (self.write or {}).get("skipped", [])]
        return lines + held


SHOWN = 3          # tests named per kind on the baseline line


def baseline_line(facts: dict) -> str:
    """One line of what the untouched port's baseline leaves out of every verdict of the run: the tests failing,
    flipping or not running there (named), the ones blocked by untranslated code (they judge the members they
    wait for), and the ones the suite says not to run, by the attribute that says so."""
    def named(names: list[str]) -> str:
        return ", ".join(names[:SHOWN]) + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")

    causes = dict(facts.get("causes", {}))
    blocked = causes.pop(BLOCKED_CAUSE, 0)
    computed, assemblies = facts.get("computed", 0), facts.get("assemblies", 0)
    line = (f"untouched port (baseline): {facts.get('tests_run', 0)} tests run ({computed} of {assemblies} test "
            f"assemblies run now" + (", the rest cached)" if computed < assemblies else ")"))
    left = sum(causes.values())
    if left:
        line += f"; left out of every verdict: {left} ({', '.join(f'{n} {kind}' for kind, n in causes.items())})"
    if facts.get("flipping"):
        line += f"; flipping: {named(facts['flipping'])}"
    if blocked:
        line += f"; {blocked} blocked by untranslated code (they judge the members they wait for)"
    by_why: dict[str, list[str]] = {}
    for name, why in (facts.get("excluded") or {}).items():
        by_why.setdefault(why, []).append(name)
    if by_why:
        line += (f"; never run, the suite says not to: {len(facts['excluded'])} ("
                 + "; ".join(f"{why}: {named(names)}" for why, names in sorted(by_why.items())) + ")")
    return line


def _rule(text: str, width: int) -> str:
    side = max(3, (width - len(text) - 2) // 2)
    return f"{'=' * side} {text} {'=' * side}"


def _clip(line: str, width: int) -> str:
    return line if len(line) <= 3 * width else line[:3 * width - 3] + "..."
