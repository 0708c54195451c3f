"""What `sync --write` and `--patch` put into the user's port, through batch --write's member splicer
(runs/write_back): a file whose only changes in the work copy are member edits that passed gets
those members spliced into the file as it is now (a member the user changed since the sync read it is
skipped and named); a file a structural step changed (rename with call sites, move, removal, created
members or types) is taken whole from the work copy, only when the user has not changed it since the
sync read it (by digest), else it is named and left alone."""
from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.runs.store import TaskRecord
from repotrans.sync.files import changed_files, unified_patch
from repotrans.runs.write_back import WritePlan, patch_text, plan_write, write_plan


@dataclass
class SyncWrite:
    written: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)      # path or member id -> why
    spliced: list[str] = field(default_factory=list)          # member ids spliced
    whole: list[str] = field(default_factory=list)            # files taken whole (structural changes)
    patch: str = ""


def edit_records(edits: list[tuple[str, str]]) -> list[TaskRecord]:
    """(target member id, passed code) -> the records plan_write splices (ids without the side prefix)."""
    return [TaskRecord("sync", "", tid.split(":", 1)[1], "passed", code=flush_left(code)) for tid, code in edits]


def flush_left(code: str) -> str:
    """An edit as cut from its file (first line at the member's start, the others at the file's depth) with
    the lines after the first at the depth a candidate has (the splicer indents it as the member it
    replaces: unchanged, it kept the file's depth twice and every line of the member showed as changed)."""
    lines = code.replace("\r\n", "\n").split("\n")
    depths = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    cut = min(depths, default=0)
    return "\n".join(lines[:1] + [line[cut:] for line in lines[1:]])


def sync_write(target: Path, work: Path, digests: dict[str, str], originals: dict[str, dict],
               start_texts: dict[str, str], edits: list[TaskRecord], write: bool) -> SyncWrite:
    """Plan (and with `write` do) the write-back; `originals` are the edited members' texts at the start
    (write_back.original_texts), `start_texts` the files holding them then (path -> text)."""
    out = SyncWrite()
    by_file: dict[str, list[TaskRecord]] = {}
    for rec in edits:
        if rec.task_id in originals:
            by_file.setdefault(originals[rec.task_id]["path"], []).append(rec)
    changed = changed_files(target, work)
    spliced_files = [rel for rel in changed if rel in by_file and _edits_only(rel, work, start_texts, originals,
                                                                               by_file[rel])]
    plan = plan_write(target, originals, [r for rel in spliced_files for r in by_file[rel]])
    out.refused.update({tid: why for tid, why in plan.skipped})
    whole = [rel for rel in changed if rel not in spliced_files]
    chunks = {rel: f"diff --git a/{rel} b/{rel}\n" + patch_text(WritePlan(files={rel: c}))
              for rel, c in plan.files.items()}
    chunks.update(_whole_patch(target, work, whole))
    out.patch = "".join(chunks[rel] for rel in sorted(chunks))
    if write:
        out.written = write_plan(target, plan)
        out.refused.update({tid: why for tid, why in plan.skipped})
        for rel in whole:
            dest, src = target / rel, work / rel
            now = hashlib.sha256(dest.read_bytes()).hexdigest() if dest.is_file() else None
            if now != digests.get(rel):
                out.refused[rel] = "changed in the port since the sync read it; apply RUN/changes.patch by hand"
                continue
            if src.is_file():
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(src.read_bytes())
            else:
                dest.unlink()
            out.written.append(rel)
            out.whole.append(rel)
    else:
        out.whole = whole
    out.spliced = sorted(m for c in plan.files.values() for m in c.members)
    out.written.sort()
    return out


def _edits_only(rel: str, work: Path, start_texts: dict[str, str], originals: dict[str, dict],
                recs: list[TaskRecord]) -> bool:
    """Whether the work copy's file is its start text with exactly these members spliced (no structural
    change in it), checked with the same splicer on a scratch copy of the start text."""
    start = start_texts.get(rel)
    if start is None:
        return False
    with tempfile.TemporaryDirectory(prefix="sync-write-") as tmp:
        scratch = Path(tmp) / rel
        scratch.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_bytes(start.encode("utf-8"))
        plan: WritePlan = plan_write(Path(tmp), originals, recs)
    change = plan.files.get(rel)
    now = (work / rel).read_bytes().decode("utf-8", "replace")
    return change is not None and not plan.skipped and _ws(change.after) == _ws(now)


def _ws(text: str) -> str:
    return " ".join(text.split())


def _whole_patch(target: Path, work: Path, rels: list[str]) -> dict[str, str]:
    """unified_patch's chunks of the files `rels`, by path."""
    if not rels:
        return {}
    keep, out = set(rels), {}
    for chunk in unified_patch(target, work).split("diff --git ")[1:]:
        rel = chunk.split(" ", 1)[0][2:]
        if rel in keep:
            out[rel] = "diff --git " + chunk
    return out
