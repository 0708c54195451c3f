"""The run folder's trajectory: one JSON line per step, appended and flushed as the run goes (the
configured API key redacted)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from repotrans.redact import redact


def read_entries(path: Path) -> list[dict]:
    """A trajectory file's entries, one JSON object a line. Lines end at "\n" only: str.splitlines() also ends
    them at U+0085, U+2028 and other separators that JSON strings hold raw (ensure_ascii=False), and every
    ZXing.Net trajectory holds a U+0085 (`ablate`'s HTML report died reading one)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


class Trajectory:
    """One task's folder: its steps (trajectory.jsonl, rewritten as they happen) and its files."""
    FILE = "trajectory.jsonl"
    RESULT = "result.json"         # the session's outcome (agents.team)

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = run_dir / self.FILE
        self.path.write_text("", encoding="utf-8")
        self.started = time.time()

    def record(self, kind: str, **data: Any) -> None:
        """Append one step (prompt, response, tool call, test result, ...) and flush it to disk."""
        entry = {"kind": kind, "t": round(time.time() - self.started, 3), **data}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(redact(json.dumps(entry, ensure_ascii=False, default=_default)) + "\n")

    def entries(self) -> list[dict]:
        return read_entries(self.path)

    def write_json(self, name: str, data: Any) -> Path:
        path = self.run_dir / name
        path.write_text(redact(json.dumps(data, indent=2, ensure_ascii=False, default=_default)) + "\n",
                        encoding="utf-8")
        return path


def _default(obj: Any) -> Any:
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if hasattr(obj, "__dataclass_fields__"):
        from dataclasses import asdict

        return asdict(obj)
    return str(obj)
