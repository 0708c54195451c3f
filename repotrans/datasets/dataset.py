"""A dataset: a Java repository, its complete C# port and the validated task list, as `dataset.json`
records them (the manifest holds no machine path: a dataset works wherever its folder and its repositories
move together), and the report.md written beside it. datasets.build makes one; datasets.masking lays out
the masked view an agent sees."""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from repotrans.errors import ConfigError

MANIFEST = "dataset.json"


@dataclass
class DatasetTask:
    id: str                      # the target method id without its side prefix
    target_method_id: str
    source_method_id: str
    path: str                    # C# file, relative to the port's root
    confidence: float


@dataclass
class Dataset:
    name: str
    root: Path                   # folder holding dataset.json
    source: str                  # Java repo, relative to root
    target: str                  # complete C# port, relative to root
    tasks: list[DatasetTask]
    dropped: list[dict] = field(default_factory=list)
    toolchain: str = "mono"
    validated: bool = True       # False: built with --no-validate (every report says so)
    # tests failing on the untouched port ("Project:Ns.Fixture.Test" -> cause): left out of every verdict on it
    fails_before_any_change: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The name as reports show it: unvalidated datasets say so."""
        return self.name if self.validated else f"{self.name} (unvalidated)"

    @property
    def source_dir(self) -> Path:
        return (self.root / self.source).resolve()

    @property
    def target_dir(self) -> Path:
        return (self.root / self.target).resolve()

    def save(self) -> Path:
        data = {"name": self.name, "source": self.source, "target": self.target,
                "toolchain": self.toolchain, "validated": self.validated, "tasks": [asdict(t) for t in self.tasks],
                "dropped": self.dropped, "fails_before_any_change": self.fails_before_any_change}
        path = self.root / MANIFEST
        path.write_text(json.dumps(data, indent=1) + "\n")
        return path


def load_dataset(root: Path) -> Dataset:
    """Read `root/dataset.json`; a missing or malformed manifest is a ConfigError."""
    path = root / MANIFEST
    if not path.is_file():
        raise ConfigError(f"{root} is not a dataset: no {MANIFEST} (build one with `repotrans dataset build`)")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is malformed: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} is malformed: expected a JSON object, found {type(data).__name__}")
    missing = [k for k in ("name", "source", "target", "tasks") if k not in data]
    if missing:
        raise ConfigError(f"{path} is malformed: missing field {', '.join(map(repr, missing))}")
    tasks = []
    for n, t in enumerate(data["tasks"], 1):
        try:
            tasks.append(DatasetTask(**t))
        except TypeError as exc:
            raise ConfigError(f"{path} is malformed: task {n}: {exc}") from None
    return Dataset(name=data["name"], root=root, source=data["source"], target=data["target"],
                   toolchain=data.get("toolchain", "mono"), tasks=tasks, dropped=data.get("dropped", []),
                   validated=bool(data.get("validated", True)),
                   fails_before_any_change=dict(data.get("fails_before_any_change", {})))


def render_report(ds: Dataset, stats: dict | None = None) -> str:
    """report.md: what was kept, what was dropped and why, and how long validation took."""
    lines = [f"# Dataset {ds.name}", "", f"- source: `{ds.source}`", f"- target: `{ds.target}`"]
    if ds.validated:
        lines += [f"- validated tasks: {len(ds.tasks)}", f"- dropped: {len(ds.dropped)}"]
    else:
        lines += [f"- tasks: {len(ds.tasks)}, **unvalidated** (built with --no-validate: a task's ground truth "
                  "may fail its tests and a placeholder may pass them)"]
    if stats:
        per = stats["task_seconds"] / stats["checked"] if stats["checked"] else 0.0
        lines += [f"- validation: {stats['checked']} tasks in {stats['wall_seconds']} s with --jobs {stats['jobs']} "
                  f"({per:.1f} s per task); {stats['no_covering_test']} without a covering test"]
        if "baseline_seconds" in stats:
            lines += [f"- untouched baseline: {stats['baseline_seconds']} s ({stats['baseline_computed']} of "
                      f"{stats['baseline_assemblies']} test assemblies run, the rest unchanged and cached)"]
        if "schemata" in stats:
            sch = stats["schemata"]
            lines += [f"- one schemata build ({sch['build_seconds']} s) served {sch['guarded']} tasks; "
                      f"{sch['per_task']} were built per task"]
            if sch.get("routes"):
                lines += ["- schemata test runs: " + ", ".join(f"{n} {route}" for route, n in sorted(sch["routes"].items()))
                          + " (the rest: ground truth and placeholder decided in shared batches)"]
            if sch.get("phases"):
                lines += ["- after the build, wall seconds: " + ", ".join(f"{name} {s}" for name, s in sch["phases"].items())]
    lines.append("")
    if ds.fails_before_any_change:
        lines += [f"{len(ds.fails_before_any_change)} tests fail on the untouched port and are left out of every "
                  "verdict:", "", "| test | fails before any change: |", "|---|---|"]
        lines += [f"| `{k}` | {why} |" for k, why in sorted(ds.fails_before_any_change.items())]
        lines.append("")
    if stats and stats.get("excluded"):
        lines += [f"{len(stats['excluded'])} tests the suite says not to run are never run, named or not (no verdict "
                  "rests on them):", "", "| test | left out by |", "|---|---|"]
        lines += [f"| `{k}` | {why} |" for k, why in sorted(stats["excluded"].items())]
        lines.append("")
    if ds.dropped:
        lines += ["| dropped task | reason |", "|---|---|"]
        lines += [f"| `{d['id']}` | {d['reason']} |" for d in ds.dropped]
        lines.append("")
    per_type: dict[str, int] = {}
    for t in ds.tasks:
        owner = _owner(t.id)
        per_type[owner] = per_type.get(owner, 0) + 1
    lines += ["| C# type | tasks |", "|---|---:|"] + [f"| `{k}` | {n} |" for k, n in sorted(per_type.items())]
    return "\n".join(lines) + "\n"


def _owner(task_id: str) -> str:
    """The declaring type of a task id: `Ns.Type.Name(int)` -> `Ns.Type`, `Ns.Type.this[int]` -> `Ns.Type`."""
    head = re.split(r"[(\[]", task_id, maxsplit=1)[0]
    return head.rsplit(".", 1)[0]
