"""Which untranslated members to write by hand first: each placeholder the batch left, ranked by how many
tasks it keeps blocked.

A blocked task names the placeholders its tests stopped in (`behind`: the runner's own record of the
call chains, execution.judge.blocked); so does a verdict judged past them, for its left-out tests. A member blocks those tasks directly, and through groups: a task
blocked behind another blocked task waits on what that one waits on. A member that is a task whose candidate
did not pass comes with the untranslated members that candidate calls or ran into (the same record: chains
through a candidate frame, and its code's calls by name): written alone, its blocked tasks would only stop
there next, so they are written with it.
Writing the first member of the list (and what it needs) by hand, then `batch --resume`, judges again the
tasks it blocked (rejudge.unchanged_blocked keeps the others as they were), and the partial tasks whose
left-out tests stopped in it (rejudge.stale_partials; they are named apart here). A task whose own member is
written is no task of the resumed run any more (rejudge.written_since). The batch summary, report.md and
report.html end with this list.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from repotrans.runs.store import TaskRecord
from repotrans.verdicts.status import PARTIAL

SHOWN = 5           # members listed (the rest is counted)
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


@dataclass(frozen=True)
class Blocker:
    """An untranslated member (C# id, no side prefix) and the blocked tasks it keeps waiting."""
    member: str
    tasks: tuple[str, ...]
    is_task: bool = False       # a task of this run that did not pass (its candidate is in its task folder)
    needs: tuple[str, ...] = ()  # untranslated members its candidate's own code ran into: write them with it
    partial: tuple[str, ...] = ()  # partial tasks whose left-out tests stop in it (judged again on resume)

    def to_json(self) -> dict:
        return {**asdict(self), "tasks": list(self.tasks), "needs": list(self.needs), "partial": list(self.partial)}

    @classmethod
    def from_json(cls, data: dict) -> Blocker:
        return cls(data["member"], tuple(data["tasks"]), data.get("is_task", False), tuple(data.get("needs", ())),
                   tuple(data.get("partial", ())))


def _behind(rec: TaskRecord) -> set[str]:
    return {b.split(":", 1)[-1] for b in (rec.result or {}).get("behind", [])}


def _ran_into(rec: TaskRecord) -> list[str]:
    """The placeholders (runtime names, `Ns.Type.Method`) whose guard fired below a frame of the candidate."""
    found: dict[str, None] = {}
    for failure in (rec.result or {}).get("failures", []):
        for chain in failure.get("chains", []):
            frames = chain.get("frames", [])
            if frames and any("(candidate line" in f for f in frames[1:]):
                found[frames[0].split(" (", 1)[0].strip().replace("..ctor", ".<init>")] = None
    return list(found)


def _by_name(members: set[str]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = {}
    for member in members:
        by_name.setdefault(member.split("(", 1)[0], []).append(member)
    return by_name


def _needs(rec: TaskRecord, untranslated: set[str], placeholders: set[str]) -> tuple[str, ...]:
    """The untranslated members (ids) `rec`'s candidate ran into, and the placeholders the latest judgements
    stopped in that its code calls (a member of its own type by its simple name; a member written by hand
    since stops no test), itself aside; a runtime name no id matches is given as it is."""
    known = _by_name(untranslated)
    needs: list[str] = []
    for name in _ran_into(rec):
        needs += sorted(known.get(name, [name]))
    own_type = rec.task_id.split("(", 1)[0].rsplit(".", 1)[0]
    called = set(_CALL.findall(rec.code or ""))
    for name, members in sorted(_by_name(placeholders).items()):
        owner, _, simple = name.rpartition(".")
        if owner == own_type and simple in called:
            needs += sorted(members)
    return tuple(m for m in dict.fromkeys(needs) if m != rec.task_id)


def _split(tasks: set[str], status: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tasks a member keeps waiting, apart from the partial ones whose left-out tests stop in it."""
    return (tuple(sorted(t for t in tasks if status.get(t) != PARTIAL)),
            tuple(sorted(t for t in tasks if status.get(t) == PARTIAL)))


def translate_first(records: list[TaskRecord]) -> list[Blocker]:
    """The untranslated members that blocked tasks wait on, most blocked tasks first (then most partial ones,
    then members that are not blocked themselves, then by name)."""
    passed = {r.task_id for r in records if r.passed}
    waits = {r.task_id: _behind(r) - passed for r in records if not r.passed and _behind(r)}
    status = {r.task_id: r.status for r in records}
    blocked_by: dict[str, set[str]] = {}
    for task in waits:
        seen, todo = set(), list(waits[task])
        while todo:                                  # what it waits on, and what those wait on
            member = todo.pop()
            if member in seen or member == task:
                continue
            seen.add(member)
            todo += waits.get(member, ())
        for member in seen:
            blocked_by.setdefault(member, set()).add(task)
    ranked = sorted(((m, *_split(tasks, status)) for m, tasks in blocked_by.items()),
                    key=lambda e: (-len(e[1]), -len(e[2]), e[0] in waits, e[0]))
    by_id = {r.task_id: r for r in records}
    untranslated = set(blocked_by) | {r.task_id for r in records if not r.passed}
    return [Blocker(member, blocked, member in status,
                    _needs(by_id[member], untranslated, set(blocked_by)) if member in by_id else (), partial)
            for member, blocked, partial in ranked]


def render_lines(blockers: list[Blocker] | list[dict], markdown: bool = False) -> list[str]:
    """'Translate these first': one line per member (its count and tasks), for the summary or report.md."""
    items = [b if isinstance(b, Blocker) else Blocker.from_json(b) for b in blockers]
    if not items:
        return []
    tick = "`" if markdown else ""
    lines = ["translate these first (untranslated members, by the tasks their placeholder blocks; write one by "
             "hand, then run the same batch with --resume to judge those tasks again):"]
    for b in items[:SHOWN]:
        shown = ", ".join(f"{tick}{t}{tick}" for t in b.tasks[:4]) + (", ..." if len(b.tasks) > 4 else "")
        kind = " (a task that did not pass)" if b.is_task else ""
        if b.needs:
            kind += (f", with {', '.join(f'{tick}{n}{tick}' for n in b.needs)} (its candidate calls them or "
                     "stops in them: write them with it)")
        line = f"{'- ' if markdown else '  '}{tick}{b.member}{tick}{kind}: blocks " + (
            f"{len(b.tasks)} task{'s' * (len(b.tasks) != 1)}: {shown}" if b.tasks else "no task")
        if b.partial:
            line += (f"; {len(b.partial)} partial task{'s' * (len(b.partial) != 1)} left out tests that stop in it: "
                     + ", ".join(f"{tick}{t}{tick}" for t in b.partial[:4]) + (", ..." if len(b.partial) > 4 else ""))
        lines.append(line)
    if len(items) > SHOWN:
        lines.append(f"{'- ' if markdown else '  '}... and {len(items) - SHOWN} more")
    return lines
