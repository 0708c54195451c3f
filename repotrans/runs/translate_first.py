"""Which untranslated members to write by hand first: each placeholder the batch left, ranked by how many
tasks it keeps blocked.

A blocked task names the placeholders its tests stopped in (`behind`: the runner's own record of the
call chains, execution.judge.blocked); so does a verdict judged past them, for its left-out tests. A member blocks those tasks directly, and through groups: a task
blocked behind another blocked task waits on what that one waits on. Writing the first member of the
list by hand, then `batch --resume`, judges again the tasks it blocked (rejudge.unchanged_blocked keeps
the others as they were). The batch summary, report.md and report.html end with this list.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from repotrans.runs.store import TaskRecord
from repotrans.verdicts.status import BLOCKED

SHOWN = 5           # members listed (the rest is counted)


@dataclass(frozen=True)
class Blocker:
    """An untranslated member (C# id, no side prefix) and the blocked tasks it keeps waiting."""
    member: str
    tasks: tuple[str, ...]
    is_task: bool = False       # a task of this run that did not pass (its candidate is in its task folder)

    def to_json(self) -> dict:
        return {**asdict(self), "tasks": list(self.tasks)}


def _behind(rec: TaskRecord) -> set[str]:
    return {b.split(":", 1)[-1] for b in (rec.result or {}).get("behind", [])}


def translate_first(records: list[TaskRecord]) -> list[Blocker]:
    """The untranslated members that blocked tasks wait on, most tasks first (then members that are not
    blocked themselves, then by name)."""
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
    ranked = sorted(blocked_by.items(), key=lambda kv: (-len(kv[1]), kv[0] in waits, kv[0]))
    return [Blocker(member, tuple(sorted(tasks)), member in status) for member, tasks in ranked]


def render_lines(blockers: list[Blocker] | list[dict], markdown: bool = False) -> list[str]:
    """'Translate these first': one line per member (its count and tasks), for the summary or report.md."""
    items = [b if isinstance(b, Blocker) else Blocker(b["member"], tuple(b["tasks"]), b.get("is_task", False))
             for b in blockers]
    if not items:
        return []
    tick = "`" if markdown else ""
    lines = ["translate these first (untranslated members, by the tasks their placeholder blocks; write one by "
             "hand, then run the same batch with --resume to judge those tasks again):"]
    for b in items[:SHOWN]:
        shown = ", ".join(f"{tick}{t}{tick}" for t in b.tasks[:4]) + (", ..." if len(b.tasks) > 4 else "")
        kind = " (a task that did not pass)" if b.is_task else ""
        lines.append(f"{'- ' if markdown else '  '}{tick}{b.member}{tick}{kind}: blocks {len(b.tasks)} "
                     f"task{'s' * (len(b.tasks) != 1)}: {shown}")
    if len(items) > SHOWN:
        lines.append(f"{'- ' if markdown else '  '}... and {len(items) - SHOWN} more")
    return lines
