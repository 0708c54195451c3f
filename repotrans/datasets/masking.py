"""Tasks and placeholders: which C# members of a complete port are tasks (a body and a Java counterpart,
never test code), the placeholder that replaces a task's body, and the masked copy of the port (every task
a placeholder) that is all an agent sees. The ground truth stays in the complete port, which only the
evaluation oracle (the runner) reads."""
from __future__ import annotations

import fnmatch
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from repotrans.datasets.dataset import MANIFEST, Dataset, DatasetTask
from repotrans.errors import ConfigError
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.machine_cache import MachineMappings
from repotrans.mapping.overrides import MappingOverrides
from repotrans.mapping.test_code import test_files

THROW = "throw new System.NotImplementedException();"
# an accessor where the accessor list (or the previous accessor) ends: `get {`, `private set;`, `set =>`
_ACCESSOR = re.compile(r"(?:^|[};])\s*((?:(?:private|protected|internal)\s+)*(?:get|set))\s*(?:\{|;|=>)")


def candidate_tasks(index: Index, select: list[str] | None = None, overrides: MappingOverrides | None = None,
                    machine: MachineMappings | None = None) -> list[DatasetTask]:
    """Target methods with a body, a Java counterpart in the mapping (with the user's `overrides`; kept in
    the `machine`'s cache too), and an id matching `select`; never a member of test code (a test method has
    no test judging it)."""
    mapping = load_mapping(index, overrides, machine)
    tests = test_files("target", index.files("target"), index.root("target"))
    tasks: dict[str, DatasetTask] = {}
    for m in index.all_methods("target"):
        match = mapping.source_method(m.id)
        if match is None or m.body is None or is_placeholder(m.body) or _is_auto_property(m) or m.path in tests:
            continue
        tid = m.id.split(":", 1)[1]
        if select and not any(fnmatch.fnmatchcase(tid, pat) for pat in select):
            continue
        tasks[tid] = DatasetTask(id=tid, target_method_id=m.id, source_method_id=match.source_id,
                                 path=m.path, confidence=match.confidence)
    return list(tasks.values())


def _is_auto_property(m: Method) -> bool:
    return m.kind == "property" and re.fullmatch(r"\{\s*(\w+\s*)?get;\s*((private|protected|internal)?\s*set;)?\s*\}",
                                                 (m.body or "").strip()) is not None


def placeholder_body(m: Method) -> str:
    """A body that compiles wherever the original did and fails any test that needs the method."""
    if m.kind in ("property", "indexer"):
        body = (m.body or "").strip()
        accessors = [] if body.startswith("=>") else [a.group(1) for a in _ACCESSOR.finditer(body[1:])]
        return "{ " + " ".join(f"{a} {{ {THROW} }}" for a in accessors or ["get"]) + " }"
    return "{ " + THROW + " }"


def mask_file(text: bytes, methods: list[Method]) -> bytes:
    """Replace the body of each method (byte ranges from the index) by its placeholder."""
    for m in sorted(methods, key=lambda m: m.body_start_byte or 0, reverse=True):
        start, end = m.body_start_byte, m.body_end_byte
        if start is None or end is None:
            continue
        if text[start:end].lstrip().startswith(b"=>") and not text[start:end].rstrip().endswith(b";"):
            end = text.index(b";", end) + 1
        text = text[:start] + placeholder_body(m).encode() + text[end:]
    return text


def mask_repo(index: Index, tasks: list[DatasetTask], dest: Path) -> None:
    """Copy the indexed target into `dest` and mask every task there."""
    root = index.root("target")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans"))
    by_path: dict[str, list[Method]] = {}
    for t in tasks:
        m = index.method(t.target_method_id)
        if m is None:
            raise ConfigError(f"task {t.id} is not in the index of {root}; rebuild the dataset")
        by_path.setdefault(m.path, []).append(m)
    for path, methods in by_path.items():
        file = dest / path
        file.write_bytes(mask_file(file.read_bytes(), methods))


@dataclass
class Materialized:
    source: Path                 # Java repository (as shipped)
    target: Path                 # C# port with every task masked: all an agent sees
    oracle_index: Index          # index of the complete port: only the runner reads it


def materialize(ds: Dataset, dest: Path) -> Materialized:
    """Lay out the masked view of a dataset under `dest` (rebuilt when the manifest changed)."""
    oracle = Index.open(dest / "oracle-index")
    oracle.build(ds.source_dir, ds.target_dir, progress=False)
    stamp = dest / "masked.stamp"
    manifest = (ds.root / MANIFEST).read_text()
    target = dest / "target"
    if not (stamp.is_file() and stamp.read_text() == manifest and target.is_dir()):
        mask_repo(oracle, ds.tasks, target)
        stamp.write_text(manifest)
    return Materialized(source=ds.source_dir, target=target, oracle_index=oracle)
