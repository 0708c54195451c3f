"""The end of a batch, after its last task or any stop: blocked tasks judged again, the whole suite run
once with the passing translations (and nothing else), and what passed written into the port when asked.

`--write` (and `--patch FILE`) happen at the end of every batch, stopped early or not, and say what they
wrote or why nothing: nothing passed; the whole suite timed out, did not build, or has failures it cannot
put down to members still untranslated (translations that pass alone but fail together), unless
`--write-anyway`. A weaker verdict is not written unless asked: a `partial` one (passed on the tests that
could run; `--write-partial`) nor a pass under reduced trust (`--write-reduced-trust`); what was held back is
said, and named on the outcome (`withheld`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.chain import Members, Own, stops_in_untranslated
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.toolchains import TargetBuildError
from repotrans.verdicts.status import BLOCKED, NO_TESTS, PARTIAL, PASSED
from repotrans.runs.batch_progress import outcome_of
from repotrans.runs.rejudge import WAITING, WorkCopy, past_placeholders, rejudge_blocked
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.whole_suite import summarize, translated_fixtures, translated_part
from repotrans.runs.write_back import WritePlan, patch_text, plan_write, render, write_plan
from repotrans.index.model import Method
from repotrans.index.store import Index


@dataclass
class WriteRequest:
    """What the user asked to have written: into the port (`write`), as a diff (`patch`), or both;
    `anyway`: also when the whole-suite check does not clear the translations."""
    write: bool = False
    patch: Path | None = None
    anyway: bool = False
    partial: bool = False           # also partial verdicts (passed on the tests that could run)
    reduced_trust: bool = False     # also passes under reduced trust (a capability the Java original reaches)

    @property
    def wanted(self) -> bool:
        return self.write or self.patch is not None


@dataclass
class WriteOutcome:
    """What was written (summary.json's "written"), or why nothing was."""
    plan: dict = field(default_factory=dict)      # WritePlan.to_json()
    members: list[str] = field(default_factory=list)
    refused: str = ""
    lines: list[str] = field(default_factory=list)
    withheld: list[list[str]] = field(default_factory=list)   # [task id, why it was not written]


def rejudge(copy: WorkCopy, records: list[TaskRecord], order: list[str], runner: Judge,
            store: RunStore, java: dict[str, Method | None], say: Callable[[str], None],
            tasks_dir: Path | None = None, judged_on: dict[str, str] | None = None,
            again: set[str] = frozenset()) -> None:
    """Blocked and untested tasks judged again (runs.rejudge), callees first (`order`: task ids), with the
    partial ones in `again` (a member their left-out tests stopped in was written by hand since)."""
    rank = {t: i for i, t in enumerate(order)}
    blocked = sorted((r for r in records if r.status in WAITING or r.task_id in again),
                     key=lambda r: rank.get(r.task_id, len(rank)))
    if not blocked:
        return
    untested = sum(r.status == NO_TESTS for r in blocked)
    partial = sum(r.status not in WAITING for r in blocked)
    also = (f" and {untested} no test reached" if untested else "") + (
        f" and {partial} partial (a member they stopped in was written since)" if partial else "")
    say(f"re-judging {len(blocked) - untested - partial} blocked task(s){also} on the port plus the passing "
        "translations...")
    rejudge_blocked(copy, blocked, runner, store, java, say, tasks_dir, judged_on)
    now = Counter(outcome_of(r) for r in blocked)
    say("  " + ", ".join(f"{n} {k}" for k, n in sorted(now.items())))


def combined_check(index: Index, passing: list[TaskRecord], runner: Judge,
                   untranslated: list[str] | None = None, java: dict[str, Method | None] | None = None) -> dict:
    """Run the whole suite once on the work copy (the port plus every passing translation and nothing
    else); name the tasks that passed alone but whose covering tests fail together. Failures inside
    placeholders are put down to the `untranslated` tasks when there are any. Each run is checked with
    the allowances of its member's Java original (`java`: target method id -> method)."""
    java = java or {}
    methods = [m for m in (index.method("target:" + r.task_id) for r in passing) if m is not None]
    root = index.root("target")

    def as_is(m):
        return (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")

    whole = runner.run(index, methods[0], as_is(methods[0]), scope="all",
                       allow=allowances(index, java.get(methods[0].id)), java=java.get(methods[0].id))
    own, members = [Own(m, java.get(m.id), as_is(m)) for m in methods], Members(index)

    def in_placeholder(failure) -> list[str]:
        """The placeholders this failing test stopped in (the runner's record of its call chains), no passing
        translation leading it there but where its Java original reaches that placeholder."""
        return [m.id.split(":", 1)[1] for m in stops_in_untranslated(failure, index, own, members)]

    out = {**summarize(whole, in_placeholder), **translated_part(whole, translated_fixtures(index)), "fail_together": [],
           "inputs": len(methods)}
    if untranslated and out["in_untranslated"] and not out["untranslated"]:
        out["untranslated"] = sorted(untranslated)      # the runner named no placeholder: the tasks left
    if whole.status != PASSED:
        items = [(m, as_is(m), allowances(index, java.get(m.id)), java.get(m.id)) for m in methods]
        try:
            alone = runner.run_many(index, items, scope="covering", base=root)     # all in it already: built once
        except TargetBuildError:          # the work copy does not build: each member's own compile says how
            alone = runner.run_many(index, items, scope="covering")
        # every passing translation rests only on passing ones (runs.rejudge), so each must pass
        # alone on the work copy; blocked there means its pass rested on a candidate that is not in it,
        # unless it is blocked only where it passed: past members the run leaves untranslated (every
        # placeholder stays one now), as rejudge's last judgements judged it
        out["fail_together"] = [m.id.split(":", 1)[1] for m, result in zip(methods, alone)
                                if past_placeholders(index, m, result, set(result.behind)).status not in (PASSED, PARTIAL)]
    return out


def write_refusal(together: dict) -> str:
    """Why the whole-suite check does not clear the passing translations for writing ("" when it does)."""
    if not together:
        return "the whole suite was not run"
    status = together.get("status")
    if status in (PASSED, BLOCKED):       # blocked: every failure is inside a member still untranslated
        return ""
    if status == "timeout":
        return "the whole-suite check timed out"
    if status == "compile_error":
        return "the port does not build with the passing translations together"
    if together.get("fail_together"):
        return f"{len(together['fail_together'])} translation(s) pass alone but fail together"
    if status in ("test_failure", "runtime_error"):
        elsewhere = together.get("elsewhere_count", 0)
        if elsewhere or together.get("in_untranslated", 0) < together.get("tests_failed", 0):
            return f"{elsewhere or 'some'} whole-suite failure(s) are not in untranslated members"
        return ""
    return f"the whole-suite check ended {status}"


def writable(records: list[TaskRecord], request: WriteRequest) -> tuple[list[TaskRecord], list[list[str]]]:
    """The records to write, and [task id, why not] for the weaker verdicts held back: a partial verdict
    unless `request.partial`, a pass under reduced trust unless `request.reduced_trust`."""
    out, held = [], []
    for r in sorted(records, key=lambda r: r.task_id):
        if not (r.passed or r.partial) or r.code is None:
            continue
        if r.partial and not request.partial:
            held.append([r.task_id, "partial: passed only on the tests that could run; --write-partial writes it"])
        elif r.reduced and not request.reduced_trust:
            held.append([r.task_id, f"passed under reduced trust ({r.result.get('trust')}); "
                                    "--write-reduced-trust writes it"])
        else:
            out.append(r)
    return out, held


def write_passing(target: Path, originals: dict[str, dict], records: list[TaskRecord], together: dict,
                  request: WriteRequest, stopped: str) -> WriteOutcome:
    """Splice the passing records into the port and/or write the patch, if the whole-suite check clears
    them (or `request.anyway`); every outcome says what it did."""
    out = WriteOutcome(plan={"patch": str(request.patch) if request.patch else "", "into_port": request.write})
    flag = "--write" if request.write else "--patch"     # named as the user asked: a patch-only run says patch
    passing, out.withheld = writable(records, request)
    when = " so far (the batch stopped early)" if stopped else ""
    held = [f"{flag}: not written: {task} ({why})" for task, why in out.withheld]
    if not passing:
        out.refused = "no translation passed" + when + (f" ({len(out.withheld)} weaker verdict(s) held back)"
                                                           if out.withheld else "")
        out.lines = [f"{flag}: wrote nothing: {out.refused}", *held]
        return out
    # the whole-suite check runs once something passed (on the work copy, partial translations in it too)
    why = write_refusal(together) if any(r.passed for r in passing) else ""
    unchecked = [r.task_id for r in passing if r.partial]
    if unchecked:
        held.append(f"{flag}: {len(unchecked)} partial verdict(s) written as asked (--write-partial)")
    if why and not request.anyway:
        out.refused = why
        out.lines = [f"{flag}: wrote nothing: {why}; --write-anyway writes the {len(passing)} passing "
                     "translation(s) regardless", *held]
        return out
    plan: WritePlan = plan_write(target, originals, passing)
    lines = [f"{flag}: {len(passing)} passing translation(s){when}" + (f" (despite: {why})" if why else "")]
    if request.patch is not None:
        request.patch.write_text(patch_text(plan), encoding="utf-8")
        lines.append(f"--patch: {request.patch} holds the change as a unified diff"
                     + ("" if request.write else " (the port is untouched)"))
    if request.write:
        write_plan(target, plan)
    lines += render(plan, "written" if request.write else "in the patch")
    out.plan, out.lines = {**plan.to_json(), "patch": str(request.patch) if request.patch else "",
                           "into_port": request.write}, lines + held
    out.members = [t for change in plan.files.values() for t in change.members] if request.write else []
    return out
