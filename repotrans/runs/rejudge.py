"""The work copy of a batch, and blocked candidates judged again at its end.

One rule: the shared work copy (run_dir/work/target) holds the port plus passing translations (partial ones
included, step 3) and nothing else, at every moment a verdict is taken. A candidate under judgement is added
for its own run only (the runner patches a scratch copy); blocked and failed candidates stay in the run store and
their task folder (candidate.cs), never in the shared tree.

At the end, blocked candidates, and untested ones (no test reached them while their callers were
placeholders too), are judged again until nothing changes:
  1. alone, callees first, each on the work copy as it is now: one that passes goes into the work copy
     at once, so the next sees it; one that fails is final;
  2. when no candidate passes alone, the units of blocked candidates blocked behind each other (the
     strongly connected groups of "A's tests stopped in B's placeholder", from the runtime evidence each
     verdict names in `behind`): each unit judged as one, every member applied in one copy
     (run_dir/work/group/target), built once, each member's capability check against the work copy's build
     (one that denies is settled by that member's code alone on the work copy, under its own allowances:
     Runner.own_check). Only a unit whose every member passes there is accepted, and only its verdicts are
     recorded: a verdict taken beside candidates that did not pass is evidence about
     the unit, not about one member. A member that fails there leaves the unit (keeping its own verdict)
     and the rest is judged again; a member blocked there behind another blocked candidate takes that
     candidate in (one run names only the first placeholder a test stops in, so a cycle shows itself a
     step at a time); one blocked behind a placeholder with no candidate ends the unit, nothing
     recorded. So every recorded verdict is taken on the port plus passing translations plus candidates
     that pass in that same run, and a passing translation passes on the work copy too.
  3. a candidate (alone, or a member of a unit) blocked only behind placeholders no candidate of this run
     can fill any more (their tasks ended without a pass, or they are no task) would wait forever: a test
     that stops there cannot tell anything about it. It is judged on the covering tests that could run
     (blocked.past_untranslated: at least one passed, its own member on no stopped test's chain, and one
     that passed names the member: past_placeholders) and the stopped tests are named as left out. Such a
     verdict is `partial`, never a pass: it goes into the work copy (the tasks behind it are judged through
     it, as they were when it counted as passed), is counted apart and written only when asked; it rests on
     the failure of the tasks it stopped behind, which is recorded on both records (its `behind`, their
     `holds_up`). One failed task no longer keeps everything that
     reaches it blocked.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from repotrans.agents.trajectory import Trajectory
from repotrans.errors import TaskError
from repotrans.execution.workspace.apply import apply_candidate
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.blocked import past_untranslated
from repotrans.verdicts.results import TestResult
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import member_tokens
from repotrans.verdicts.status import BLOCKED, NO_TESTS, PARTIAL, PASSED
from repotrans.execution.toolchains import TargetBuildError
from repotrans.execution.workspace.scratch import state_key
from repotrans.execution.workspace.selection import identifiers_in
from repotrans.runs.ordering import strongly_connected
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.tasks import task_dir_name
from repotrans.runs.write_back import original_texts
from repotrans.index.model import Method
from repotrans.index.placeholders import placeholder_form
from repotrans.index.parse import source_text
from repotrans.index.store import Index

CANDIDATE_FILE = "candidate.cs"
THROUGH = "no covering test of its own"     # a member judged by the tests of others that reach it (through_others)
WAITING = (BLOCKED, NO_TESTS)      # verdicts a later work copy may change (stopped in placeholders; no test reached it)
GROUP_ROUNDS = 4       # group judgements (each a build of the group's copy and a run per member) before giving up


def applicable(rec: TaskRecord) -> bool:
    """Only a passing candidate goes into the shared work copy, and a partial one (passed on every covering test
    that could run: the tasks behind it are judged through it, their verdicts resting on its own)."""
    return (rec.passed or rec.partial) and rec.code is not None


@dataclass(frozen=True)
class WorkCopy:
    """The work copy a batch judges on (see the module doc): `path` (run_dir/work/target) and `index`, over
    the Java `source` and `path`, which every change here keeps up to date (runs.run.Run.work_copy)."""
    index: Index
    source: Path
    path: Path

    def apply(self, records: list[TaskRecord]) -> None:
        """Write passing translations into the copy, one file edit and incremental re-index at a time.
        Anything but a passing record is refused: the invariant is kept here."""
        for rec in records:
            if not applicable(rec):
                raise TaskError(f"{rec.task_id}: a {rec.status} candidate cannot go into the work copy")
            m = self.index.method("target:" + rec.task_id)
            if m is None:
                continue
            path = self.path / m.path
            # bytes, not read_text: a CRLF file must keep its byte offsets (the index's) and its line endings
            text, _ = apply_candidate(source_text(path.read_bytes()), m, rec.code)
            path.write_bytes(text.encode("utf-8"))
            self.index.build(self.source, self.path, progress=False)

    def state(self) -> str:
        """The copy's state (workspace.scratch.state_key): a verdict taken on one state holds until it changes."""
        return state_key(self.path)


def still_placeholder(index: Index, member: str) -> bool:
    """Whether `member` (a C# id, no side prefix) is a throwing placeholder in `index`'s port as it is now."""
    m = index.method("target:" + member)
    return m is not None and placeholder_form(m.body) in ("throws", "accessor throws")


def unchanged_blocked(copy: WorkCopy, records: list[TaskRecord]) -> dict[str, str]:
    """For a resumed batch: task id -> the work copy's state, for each waiting record (blocked, untested)
    whose blockers are all still placeholders there, so that rejudge_blocked leaves it alone until the
    work copy changes. A member the user wrote by hand since (runs.translate_first) then has exactly
    the tasks it blocked judged again, and what their passes unblock."""
    state = copy.state()
    return {rec.task_id: state for rec in records
            if rec.status in WAITING and all(still_placeholder(copy.index, b) for b in behind_of(rec))}


def stale_partials(copy: WorkCopy, records: list[TaskRecord]) -> set[str]:
    """For a resumed batch: the partial records some of whose left-out tests stopped in a member that is no
    placeholder in the work copy any more (the user wrote it by hand since): their verdict rested on that
    placeholder, so they are judged again with the blocked ones (and stay out of the copy until then)."""
    return {rec.task_id for rec in records
            if rec.partial and not all(still_placeholder(copy.index, b) for b in behind_of(rec))}


def written_since(index: Index, originals: dict[str, dict], records: dict[str, TaskRecord],
                  task_ids: list[str]) -> list[str]:
    """For a resumed batch: the tasks whose member the user wrote in the port since the run planned them (its
    text is not the one the run found, `originals`, and no placeholder at all), leaving aside the ones whose
    own passing or partial translation the run holds (`records`; --write puts those there). They are no
    longer tasks of the run: a fresh batch on the port as it is would not find them."""
    now = original_texts(index, task_ids)
    out = []
    for tid in task_ids:
        rec, m = records.get(tid), index.method("target:" + tid)
        if (rec is not None and applicable(rec)) or m is None or tid not in originals:
            continue
        if now[tid]["text"] != originals[tid]["text"] and placeholder_form(m.body) is None:
            out.append(tid)
    return out


def keep_candidate(tasks_dir: Path, rec: TaskRecord) -> None:
    """The record's candidate beside its trajectory (tasks/<task>/candidate.cs): where a blocked or
    failed candidate lives, instead of the shared tree."""
    if rec.code is None:
        return
    folder = tasks_dir / task_dir_name(rec.task_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CANDIDATE_FILE).write_text(rec.code if rec.code.endswith("\n") else rec.code + "\n", encoding="utf-8")


def rejudge_blocked(copy: WorkCopy, blocked: list[TaskRecord], runner: Judge,
                    store: RunStore, java: dict[str, Method | None], say: Callable[[str], None],
                    tasks_dir: Path | None = None, judged_on: dict[str, str] | None = None) -> None:
    """Judge `blocked` (in callees-first order) again until no verdict changes; see the module doc.
    `java`: target method id -> its Java original, whose allowances every run keeps. Each new verdict is
    said (one line per task, as the batch's per-task lines) and written into the run store and the task's
    result.json under `tasks_dir`, so that the line, the summary, the store and the file agree.
    `judged_on`: task id -> state_key of the work copy its verdict was taken on; a task is not judged
    alone again on the same state (its verdict could not change)."""
    index = copy.index
    judged_on = dict(judged_on or {})
    tried: set[tuple[frozenset, str]] = set()          # units judged together, with the work copy's state

    def record(rec: TaskRecord, result: TestResult, how: str) -> None:
        _note(store, tasks_dir, say, rec, result, how)

    pending = [r for r in blocked if r.code is not None and index.method("target:" + r.task_id) is not None]
    while pending:
        progress = False
        still = []
        state = copy.state()
        for rec in pending:
            if judged_on.get(rec.task_id) == state:
                still.append(rec)
                continue
            m = index.method("target:" + rec.task_id)
            result = runner.run(index, m, rec.code, scope="covering", allow=allowances(index, java.get(m.id)),
                                java=java.get(m.id))
            judged_on[rec.task_id] = state
            record(rec, result, "alone")
            if applicable(rec):
                copy.apply([rec])
                state = copy.state()
                progress = True
            elif rec.status in WAITING:
                still.append(rec)
        pending = still
        if pending and not progress:
            progress = _first_past_placeholders(copy, pending, judged_on, record)
            pending = [r for r in pending if r.status in WAITING]
        if len(pending) > 1 and not progress:
            for unit in mutual_units(pending):
                key = (frozenset(r.task_id for r in unit), copy.state())
                if key in tried:
                    continue
                tried.add(key)
                members = {r.task_id for r in unit}
                done = settle_group(copy, unit, runner, store, java, say, tasks_dir,
                                    outside=[r for r in pending if r.task_id not in members], last=True)
                progress = progress or bool(done)
            pending = [r for r in pending if r.status in WAITING]
        if not progress:
            break


def _first_past_placeholders(copy: WorkCopy, pending: list[TaskRecord],
                             judged_on: dict[str, str],
                             record: Callable[[TaskRecord, TestResult, str], None]) -> bool:
    """The first pending record (callees first) whose verdict on the work copy as it is now is blocked
    only behind members that stay placeholders (no pending candidate can fill them) is judged on the tests
    that could run (blocked.past_untranslated: partial, recorded, put into the work copy); whether one was."""
    index = copy.index
    state, live = copy.state(), {"target:" + r.task_id for r in pending}
    for rec in pending:
        if judged_on.get(rec.task_id) != state or rec.result is None:
            continue
        result = TestResult.from_json(rec.result)
        staying = set(result.behind) - live
        judged = past_placeholders(index, index.method("target:" + rec.task_id), result, staying)
        if judged.status == PARTIAL:
            record(rec, judged, "alone, past members this run leaves untranslated")
            copy.apply([rec])
            return True
    return False


def past_placeholders(index: Index, method: Method, result: TestResult, staying: set[str]) -> TestResult:
    """blocked.past_untranslated, when a covering test that ran to the end names the member itself in its
    body (runner.member_tokens: its name, or `new <Class>` for a constructor): a test selected only
    because its static call graph reaches the member may never run it (ZXing.Net's Code128 writer tests
    for Datamatrix's DefaultPlacement.getBit), and could not speak for it."""
    if result.status != BLOCKED or not _named_by_a_test_that_ran(index, method, result):
        return result
    return past_untranslated(result, method, staying)


def _named_by_a_test_that_ran(index: Index, method: Method, result: TestResult) -> bool:
    """Whether a selected test that did not stop names one of the member's tokens among its identifiers
    (selection.identifiers_in: a property `X` is not named by `Max`, nor by a comment or a string)."""
    tokens, stopped = member_tokens(index, method), {f.name for f in result.failures}
    if not tokens:
        return False
    root = index.root("target")
    for entry in result.selected:
        name = entry.split(":", 1)[-1]
        fixture = index.type("target:" + name)
        tests = index.methods(fixture.id) if fixture is not None else \
            [m for m in index.find_methods("target", name.rsplit(".", 1)[-1]) if m.id.startswith(f"target:{name}(")]
        for test in tests:
            if f"{test.type_id.split(':', 1)[1]}.{test.name}" in stopped:
                continue
            if tokens & identifiers_in((root / test.path).read_bytes(), test.start_byte, test.end_byte):
                return True
    return False


def behind_of(rec: TaskRecord) -> set[str]:
    """The task ids a blocked record's tests stopped in (its result's runtime evidence)."""
    return task_ids((rec.result or {}).get("behind", []))


def task_ids(behind: list[str]) -> set[str]:
    """The task ids of a verdict's `behind` (member ids "target:Ns.T.M(...)" its tests stopped in)."""
    return {b.split(":", 1)[-1] for b in behind}


def mutual_units(pending: list[TaskRecord]) -> list[list[TaskRecord]]:
    """The records that wait on each other: the strongly connected groups (more than one member) of the
    graph 'A's tests stopped in B's placeholder', over `pending` only, where an untested record (no test
    reached it: its callers are placeholders too) waits on the blocked records whose tests stopped in
    its placeholder, since those tests reach it through them. Only such a unit is judged together; a
    record blocked behind a member outside `pending` (a failed task, a placeholder that is no task)
    stays blocked behind it, named."""
    ids = {r.task_id for r in pending}
    deps = {r.task_id: behind_of(r) & ids for r in pending}
    untested = {r.task_id for r in pending if r.status == NO_TESTS}
    for rec in pending:
        for waited in deps[rec.task_id] & untested:
            deps[waited].add(rec.task_id)
    comp = strongly_connected(deps)
    units: dict[int, list[TaskRecord]] = {}
    for rec in pending:
        units.setdefault(comp[rec.task_id], []).append(rec)
    return [unit for unit in units.values() if len(unit) > 1]


def settle_group(copy: WorkCopy, group: list[TaskRecord], runner: Judge, store: RunStore,
                 java: dict[str, Method | None], say: Callable[[str], None], tasks_dir: Path | None = None,
                 outside: list[TaskRecord] | None = None, last: bool = False) -> set[str]:
    """judge_together; when the unit is accepted, each member's pass recorded (store, result.json, a
    line each) and the members put into the work copy. The passed task ids."""
    verdicts = judge_together(copy, group, runner, java, say, outside, last)
    for rec, result in verdicts:
        _note(store, tasks_dir, say, rec, result, "together")
    accepted = [rec for rec, _ in verdicts]
    if accepted:
        copy.apply(accepted)
    return {rec.task_id for rec in accepted}


def judge_together(copy: WorkCopy, group: list[TaskRecord], runner: Judge,
                   java: dict[str, Method | None], say: Callable[[str], None],
                   outside: list[TaskRecord] | None = None, last: bool = False) -> list[tuple[TaskRecord, TestResult]]:
    """Judge `group` as one unit: every member's candidate applied in one copy (run_dir/work/group) of
    the work copy, each member judged there. The unit is accepted only when every member passes there:
    the verdicts returned are then each member's pass ("passed together with ..."), and nothing else is
    ever returned (a verdict taken beside a candidate that did not pass is not one member's). A member
    that fails there leaves and the rest is judged again; a member blocked there behind a candidate of
    `outside` (other blocked records) takes it into the unit; a member blocked behind a placeholder with
    no candidate ends the unit, except in the batch's `last` judgements, where a member blocked only behind
    such placeholders is judged on the tests that could run (blocked.past_untranslated). At most
    GROUP_ROUNDS judgements plus one per joining candidate."""
    index = copy.index
    waiting = {rec.task_id: rec for rec in outside or []}
    scratch = copy.path.parent / "group"
    members = list(group)
    stopped_in: dict[str, set[str]] = {}                 # member -> the members whose tests stopped in it
    for rec in [*members, *waiting.values()]:
        for other in behind_of(rec):
            stopped_in.setdefault(other, set()).add(rec.task_id)
    for _ in range(GROUP_ROUNDS + len(waiting)):          # a candidate joins at most once
        if len(members) < 2:
            return []
        say(f"  judging {len(members)} blocked candidates together as one unit...")
        results = _judge_group(copy, scratch, members, runner, java)
        if results is None:
            return []
        names = [r.task_id for r in members]
        live = {"target:" + t for t in [*names, *waiting]}
        for rec, result in zip(members, results):
            for other in task_ids(result.behind):
                stopped_in.setdefault(other, set()).add(rec.task_id)
        results = [through_others(rec, result, stopped_in.get(rec.task_id, set()) & set(names) - {rec.task_id})
                   for rec, result in zip(members, results)]
        if last:
            results = [past_placeholders(index, index.method("target:" + rec.task_id), result, set(result.behind) - live)
                       for rec, result in zip(members, results)]
        if all(result.status in (PASSED, PARTIAL) for result in results):     # partial: in the last judgements
            return [(rec, replace(result, reason=_together(rec.task_id, names) + (
                        f"; {result.reason}" if result.reason.startswith(THROUGH) else "") if result.status == PASSED else
                                  f"{result.reason}; judged together with {_others(rec.task_id, names)}"))
                    for rec, result in zip(members, results)]
        # a failing member leaves; so does, in the last judgements, one still blocked only behind placeholders
        # that stay (no test of it could run past them): it keeps its own verdict, the rest may still pass
        failed = {rec.task_id for rec, result in zip(members, results) if result.status not in (PASSED, PARTIAL, BLOCKED)
                  or (last and result.status == BLOCKED and not set(result.behind) & live)}
        if failed:
            say(f"  {_others('', sorted(failed))} did not pass in the unit; the rest is judged again without")
            members = [rec for rec in members if rec.task_id not in failed]
            continue
        behind = {b for result in results if result.status == BLOCKED for b in task_ids(result.behind)}
        joining = [waiting.pop(t) for t in sorted(behind & set(waiting))]
        if not joining:
            say(f"  the unit stays blocked behind {_others('', sorted(behind - set(names))) or 'its own members'}")
            return []
        members += joining
    say(f"  the unit did not settle in {GROUP_ROUNDS} judgements; its members stay blocked")
    return []


def through_others(rec: TaskRecord, result: TestResult, reached_by: set[str]) -> TestResult:
    """A member no covering test of its own reaches (no_tests: its callers were placeholders when the tests were
    chosen) whose placeholder the tests of other members of the unit (`reached_by`) stopped in before (their
    records' or an earlier round's `behind`): judged by those tests, which ran through it in this unit, so passed
    as far as it goes, and the unit decides (accepted only when those members pass too). HdrHistogram's
    LinearIterator.reachedIterationLevel(): called only through iterators the masked members build, it left the
    unit as failed, and the members whose tests stop in it were then blocked behind it: 0 of 22 right candidates
    passed. Any other verdict, or one no member's tests reached, is the member's own."""
    if result.status != NO_TESTS or not reached_by:
        return result
    reached = sorted(reached_by)
    return replace(result, status=PASSED, reason=f"{THROUGH}: judged by the tests of {_others('', reached)} that "
                                                 "stopped in its placeholder")


def _others(task_id: str, names: list[str]) -> str:
    others = [n for n in names if n != task_id]
    return ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")


def _together(task_id: str, names: list[str]) -> str:
    return f"passed together with {_others(task_id, names)} (each blocked behind the others alone)"


def _judge_group(copy: WorkCopy, scratch: Path, members: list[TaskRecord], runner: Judge,
                 java: dict[str, Method | None]) -> list[TestResult] | None:
    """Each member's verdict on a copy of the work copy holding every member's candidate (None when
    that copy does not build). The judge builds that copy once, on the work copy's workspace, and checks each
    member against the work copy's own build, which holds no member (Runner.run_many's `base`): what a member's
    candidate adds beside its member is inspected, never hidden in the baseline."""
    tree, workspace = scratch / "target", scratch / "workspace"
    for path in (tree, workspace):
        if path.exists():
            shutil.rmtree(path)
    shutil.copytree(copy.path, tree)
    group = copy.index.copy_to(workspace, copy.source, tree)
    try:
        for rec in members:
            m = group.method("target:" + rec.task_id)
            path = tree / m.path
            text, _ = apply_candidate(source_text(path.read_bytes()), m, rec.code)
            path.write_bytes(text.encode("utf-8"))
            group.build(copy.source, tree, progress=False)
        items = []
        for rec in members:
            original = java.get("target:" + rec.task_id)
            items.append((group.method("target:" + rec.task_id), rec.code, allowances(group, original), original))
        try:
            return runner.run_many(group, items, scope="covering", base=copy.path)
        except TargetBuildError:
            return None
    finally:
        group.close()


def _note(store: RunStore, tasks_dir: Path | None, say: Callable[[str], None], rec: TaskRecord, result: TestResult,
          how: str) -> None:
    before = rec.status
    _record(store, rec, result)
    _update_result_file(tasks_dir, rec, how)
    if rec.status != before:
        say(f"  {before} -> {rec.status:<13} {rec.task_id}" + (f" ({how})" if how != "alone" else ""))
    if rec.status == PARTIAL:
        _note_holds_up(store, tasks_dir, rec, result)


def _note_holds_up(store: RunStore, tasks_dir: Path | None, rec: TaskRecord, result: TestResult) -> None:
    """A partial verdict rests on the failure of the tasks whose placeholders its left-out tests stopped in:
    each of those records names it (`holds_up`), in the store and its result.json."""
    behind = task_ids(result.behind)
    for other in store.records():
        if other.task_id not in behind or (other.config, other.dataset) != (rec.config, rec.dataset):
            continue
        data = dict(other.result or {"status": other.status})
        data["holds_up"] = sorted(set(data.get("holds_up", [])) | {rec.task_id})
        other.result = data
        store.add(other)
        path = None if tasks_dir is None else tasks_dir / task_dir_name(other.task_id) / Trajectory.RESULT
        if path is not None and path.is_file():
            saved = json.loads(path.read_text(encoding="utf-8"))
            saved["result"] = data
            path.write_text(json.dumps(saved, indent=2), encoding="utf-8")


def _record(store: RunStore, rec: TaskRecord, result: TestResult) -> None:
    rec.status = result.status
    rec.result = result.to_json()
    store.add(rec)


def _update_result_file(tasks_dir: Path | None, rec: TaskRecord, how: str) -> None:
    """The task's result.json says the final verdict too, and keeps the earlier ones under "verdicts"."""
    path = None if tasks_dir is None else tasks_dir / task_dir_name(rec.task_id) / Trajectory.RESULT
    if path is None or not path.is_file():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    history = data.get("verdicts") or [{"judged": "first", "status": data.get("status")}]
    data.update(status=rec.status, result=rec.result,
                verdicts=history + [{"judged": f"again at the end ({how})", "status": rec.status}])
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
