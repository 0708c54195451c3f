"""`batch --write` and `--patch FILE`: passing translations spliced member by member into the user's port.

Never a file copied from the work copy: each file of the port is read as it is now and parsed again;
each passing member is found there by its id and replaced only if its text is still the text the batch
started from (the placeholder it indexed). A member the user changed, moved or removed since is skipped
and named, as git refuses to overwrite a local change. The candidate's lines take the indentation of the
member they replace and the file's own layout (policy.style: brace placement, indent unit, `} else`), and a
file written with CRLF stays CRLF. `--patch` writes the same change as a
unified diff (`git apply` takes it) and touches nothing.
"""
from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.errors import InputError
from repotrans.execution.workspace.apply import USING_RE, apply_candidate
from repotrans.runs.store import TaskRecord
from repotrans.index.parse import parse_file
from repotrans.translator.style import file_style, restyle


@dataclass
class FileChange:
    before: str
    after: str
    members: list[str] = field(default_factory=list)       # task ids spliced into this file
    # members and types the candidates brought along (helpers, nested types): not tasks, listed apart
    created: list[str] = field(default_factory=list)


@dataclass
class WritePlan:
    """What --write would do: the new text of each file and the members skipped, each with why."""
    files: dict[str, FileChange] = field(default_factory=dict)       # path relative to the port -> change
    skipped: list[tuple[str, str]] = field(default_factory=list)     # (task id, why)

    def to_json(self) -> dict:
        """As summary.json keeps it: per file its members and the sha256 of the text written."""
        return {"files": {rel: {"members": c.members, "created": c.created,
                                "sha256": hashlib.sha256(c.after.encode("utf-8")).hexdigest()}
                          for rel, c in sorted(self.files.items())},
                "skipped": [list(s) for s in self.skipped]}


def original_texts(index, task_ids: list[str]) -> dict[str, dict]:
    """task id -> {"path", "text"}: each task's member as the batch found it (kept in the run store, so that
    --write can tell a member the user changed since)."""
    out = {}
    for tid in task_ids:
        m = index.method("target:" + tid)
        if m is not None:
            data = (index.root("target") / m.path).read_bytes()
            out[tid] = {"path": m.path, "text": _lf(data[m.start_byte:m.end_byte].decode("utf-8", "replace"))}
    return out


def plan_write(target: Path, originals: dict[str, dict], passing: list[TaskRecord]) -> WritePlan:
    """Splice every passing record's candidate into its file of `target` as it is now (see module doc)."""
    plan = WritePlan()
    by_file: dict[str, list[TaskRecord]] = {}
    for rec in sorted(passing, key=lambda r: r.task_id):
        where = originals.get(rec.task_id)
        if not (rec.passed or rec.partial) or rec.code is None:
            plan.skipped.append((rec.task_id, f"its verdict is {rec.status}, not passed"))
        elif where is None:
            plan.skipped.append((rec.task_id, "the run does not know the member's original text"))
        else:
            by_file.setdefault(where["path"], []).append(rec)
    for rel, recs in sorted(by_file.items()):
        path = target / rel
        try:
            before = path.read_bytes().decode("utf-8")
        except FileNotFoundError:
            plan.skipped += [(r.task_id, f"{rel} is no longer in the port") for r in recs]
            continue
        except UnicodeDecodeError:
            plan.skipped += [(r.task_id, f"{rel} is not UTF-8; left as it is") for r in recs]
            continue
        crlf = "\r\n" in before and before.count("\r\n") == before.count("\n")
        # all-CRLF: spliced as LF and turned back; mixed endings: spliced as they are, each line kept
        text, done = (_lf(before) if crlf else before), []
        for rec in recs:
            spliced = _splice(rel, text, rec, originals[rec.task_id]["text"])
            if isinstance(spliced, str) and spliced.startswith("\0"):
                plan.skipped.append((rec.task_id, spliced[1:]))
                continue
            text = spliced
            done.append(rec.task_id)
        if done:
            plan.files[rel] = FileChange(before, text.replace("\n", "\r\n") if crlf else text, done,
                                         created_members(rel, before, text))
    return plan


def created_members(rel: str, before: str, after: str) -> list[str]:
    """Ids of the members and types declared in `after` but not in `before` (what candidates created
    beside the members they translate), as the index names them, without the side prefix."""
    def declared(text: str) -> set[str]:
        parsed = parse_file("target", rel, text.encode("utf-8"), "")
        return {m.id for m in parsed.methods} | {t.id for t in parsed.types}
    return sorted(i.split(":", 1)[-1] for i in declared(after) - declared(before))


def _splice(rel: str, text: str, rec: TaskRecord, original: str) -> str:
    """`text` with the record's member replaced, or "\\0why" when it cannot be."""
    data = text.encode("utf-8")
    found = [m for m in parse_file("target", rel, data, "").methods if m.id == "target:" + rec.task_id]
    if len(found) != 1:
        return "\0" + (f"no longer in {rel}" if not found else f"declared {len(found)} times in {rel}")
    m = found[0]
    if _lf(data[m.start_byte:m.end_byte].decode("utf-8")) != original:
        return "\0" + f"changed in {rel} since the batch read it; left as it is"
    line_start = data.rfind(b"\n", 0, m.start_byte) + 1
    lead = data[line_start:m.start_byte].decode("utf-8")
    margin = lead if not lead.strip() else lead[:len(lead) - len(lead.lstrip())]
    try:
        new_text, _ = apply_candidate(text, m, indented(restyle(rec.code or "", file_style(text)), margin))
    except InputError as exc:
        return "\0" + f"could not be spliced: {exc}"
    return new_text


def indented(code: str, margin: str) -> str:
    """The candidate with its own common indentation replaced by `margin` after the first line (which
    goes where the member starts); leading `using` lines are kept flush left. Multi-line verbatim and raw
    strings would change with their indentation: such code is kept as it is."""
    code = code.replace("\r\n", "\n").strip("\n")
    if '@"' in code or '"""' in code:
        return code
    lines = code.split("\n")
    first = 0
    while first < len(lines) and (USING_RE.match(lines[first]) or not lines[first].strip()):
        first += 1
    head, rest = lines[:first], lines[first:]
    if not rest:
        return code
    depths = [len(l) - len(l.lstrip()) for l in rest if l.strip()]
    base = min(depths, default=0)
    body = [rest[0].strip()] + [margin + l[base:] if l.strip() else "" for l in rest[1:]]
    return "\n".join(head + body)


def write_plan(target: Path, plan: WritePlan) -> list[str]:
    """Write each planned file, if it is still as it was read (else it is skipped and named); returns
    the paths written."""
    written = []
    for rel, change in sorted(plan.files.items()):
        path = target / rel
        if path.read_bytes().decode("utf-8", "replace") != change.before:
            plan.skipped += [(t, f"{rel} changed while the batch wrote; left as it is") for t in change.members]
            continue
        path.write_bytes(change.after.encode("utf-8"))
        written.append(rel)
    plan.files = {rel: c for rel, c in plan.files.items() if rel in written}
    return written


def patch_text(plan: WritePlan) -> str:
    """The plan as a unified diff with a/ and b/ paths (for `git apply` or `patch -p1`)."""
    out = []
    for rel, change in sorted(plan.files.items()):
        before, after = change.before.splitlines(keepends=True), change.after.splitlines(keepends=True)
        for line in difflib.unified_diff(before, after, f"a/{rel}", f"b/{rel}", n=3):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def render(plan: WritePlan, verb: str = "written") -> list[str]:
    """Lines for the console: each file with its members, then each member skipped with why."""
    lines = []
    for rel, change in sorted(plan.files.items()):
        lines.append(f"  {rel}: {len(change.members)} member{'s' * (len(change.members) != 1)} {verb}")
        lines += [f"    {t}" for t in change.members]
        lines += [f"    created (no task; came with the candidates above): {c}" for c in change.created]
    lines += [f"  skipped {t}: {why}" for t, why in plan.skipped]
    return lines


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")
