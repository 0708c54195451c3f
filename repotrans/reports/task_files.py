"""What a report shows of one task besides its record: the Java source and the ground truth (from the
run's indexes), the trajectory (from its task folder), and the token notes of its final entry."""
from __future__ import annotations

import difflib
from pathlib import Path

from repotrans.reports.run_records import dataset_or_none
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.agents.trajectory import Trajectory, read_entries
from repotrans.runs.layout import dataset_folders, tasks_folder, workdir_of
from repotrans.runs.tasks import task_dir_name
from repotrans.index.store import Index

IndexPair = tuple[Index | None, Index | None]     # (index the agents saw, oracle index of the complete port)


def run_indexes(run_dir: Path) -> dict[str, IndexPair]:
    """dataset -> (index the agents saw, oracle index of the complete port) when the run has them.

    An index written by another repotrans version is re-indexed from the dataset's repositories
    (named in the run store) rather than shown empty."""
    store = RunStore(run_dir)
    roots = store.meta("datasets", {})
    store.close()
    found: dict[str, IndexPair] = {}
    for ds_dir in dataset_folders(run_dir):
        ds = dataset_or_none(roots.get(ds_dir.name))
        repos = None if ds is None else (ds.source_dir, ds.target_dir)
        found[ds_dir.name] = (_open_index(workdir_of(ds_dir), repos and (repos[0], ds_dir / "target")),
                              _open_index(ds_dir / "oracle-index", repos))
    if Index.file_in(workdir_of(run_dir)).is_file():      # a batch run
        found["*"] = (_open_index(workdir_of(run_dir), None), None)
    return found


def _open_index(workdir: Path, repos: tuple[Path, Path] | None) -> Index | None:
    if not Index.file_in(workdir).is_file():
        return None
    index = Index.open(workdir)
    if not index.files("target") and repos is not None and all(r.is_dir() for r in repos):
        index.build(repos[0], repos[1], progress=False)
    return index


def method_text(index: Index | None, method_id: str | None) -> str | None:
    if index is None or method_id is None:
        return None
    m = index.method(method_id)
    if m is None:
        return None
    return (index.root(m.side) / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8", "replace")


def trajectory_path(run_dir: Path, r: TaskRecord) -> Path | None:
    """The task's trajectory.jsonl (an ablation nests task folders under config/dataset), if there is one."""
    folder = tasks_folder(run_dir, r.config, r.dataset) / task_dir_name(r.task_id)
    if not folder.is_dir():
        folder = tasks_folder(run_dir) / task_dir_name(r.task_id)
    path = folder / Trajectory.FILE
    return path if path.is_file() else None


def trajectory(run_dir: Path, r: TaskRecord) -> list[dict]:
    """The task's trajectory entries."""
    path = trajectory_path(run_dir, r)
    if path is None:
        return []
    return read_entries(path)


def token_notes(entries: list[dict]) -> list[str]:
    """Cached vs spent and the candidate's additions, from the trajectory's final entry."""
    done = next((e for e in reversed(entries) if e.get("kind") == "done"), None) or {}
    t, adds = done.get("tokens") or {}, done.get("additions") or {}
    notes = []
    if t.get("cached_calls"):
        notes.append(f"{t['cached_calls']} of {t['calls']} calls from the response cache "
                     f"({t.get('replayed_prompt', 0)} prompt tokens not spent)")
    if t.get("server_cached_prompt"):
        notes.append(f"{t['server_cached_prompt']} prompt tokens from the server's cache")
    if t.get("unreported_calls"):
        notes.append(f"{t['unreported_calls']} calls without usage")
    if adds.get("usings") or adds.get("helpers"):
        brought = adds.get("usings", []) + [f"helper {h}" for h in adds.get("helpers", [])]
        notes.append("candidate brings " + ", ".join(brought))
    return notes


def dedent_member(text: str) -> str:
    """A member cut from its file keeps the file's indentation after its first line; drop it (the
    closing line's indentation) so that a diff shows changed code, not moved margins."""
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    margin = lines[-1][:len(lines[-1]) - len(lines[-1].lstrip())]
    return "\n".join([lines[0]] + [line[len(margin):] if line.startswith(margin) else line.lstrip()
                                    for line in lines[1:]])


def diff_lines(truth: str, code: str) -> list[tuple[str, str]]:
    """(css class, line) of a unified diff from the ground truth to the generated code."""
    out = []
    for line in difflib.unified_diff(truth.splitlines(), code.splitlines(), "ground truth", "generated", lineterm=""):
        cls = "add" if line.startswith("+") and not line.startswith("+++") else (
            "del" if line.startswith("-") and not line.startswith("---") else "")
        out.append((cls, line))
    return out or [("", "(identical)")]
