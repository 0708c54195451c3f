"""The run store: one SQLite file per run folder, one row per finished task.

Each result is committed the moment it is known (WAL journal, one transaction per row), so a run
killed at any point keeps everything it finished and a resumed run skips exactly those tasks.
"""
from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from repotrans.verdicts.status import COMPILED, PARTIAL, PASSED, TASK_STATUSES
from repotrans.runs.layout import results_file
from repotrans.redact import redact

SCHEMA_VERSION = 2          # 2: progress_json (fallbacks, calls and test runs saved: agents.progress)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    config      TEXT NOT NULL,
    dataset     TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    status      TEXT NOT NULL,      -- one of execution.status.TASK_STATUSES
    compiled    INTEGER NOT NULL,
    passed      INTEGER NOT NULL,
    rounds      INTEGER NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    model_calls INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    cost        REAL,
    code        TEXT,
    result_json TEXT,
    error       TEXT,
    finished_at REAL NOT NULL,
    progress_json TEXT,             -- agents.progress: fallbacks, identical requests / repeated candidates avoided
    PRIMARY KEY (config, dataset, task_id)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""



@dataclass
class TaskRecord:
    config: str
    dataset: str
    task_id: str
    status: str
    rounds: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_calls: int = 0
    seconds: float = 0.0
    cost: float | None = None
    code: str | None = None
    result: dict | None = None
    error: str | None = None
    finished_at: float = field(default_factory=time.time)
    progress: dict | None = None         # Outcome.progress: fallbacks, identical requests and repeated candidates avoided

    @property
    def fallbacks(self) -> list[str]:
        """The steps that took their deterministic default (agents.progress), in order."""
        return [f.get("step", "?") for f in (self.progress or {}).get("fallbacks", [])]

    def saved(self, key: str) -> int:
        """A count of agents.progress: identical_requests_avoided or repeated_candidates_avoided."""
        return int((self.progress or {}).get(key, 0))

    @property
    def compiled(self) -> bool:
        return self.status in COMPILED

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def partial(self) -> bool:
        """Passed on the covering tests that could run, others left out behind members this run leaves
        untranslated: not a pass (verdicts.status.PARTIAL)."""
        return self.status == PARTIAL

    @property
    def reduced(self) -> bool:
        """The verdict ran with a capability the Java original reaches (`trust: reduced (...)`)."""
        return bool((self.result or {}).get("trust"))

    @property
    def translated_verdict(self) -> bool:
        """The verdict rests on tests repotrans translated from JUnit (result "judged_by"): such a
        task is counted apart, never in the figures of the port's own tests."""
        return bool((self.result or {}).get("translated"))


def port_records(records: list[TaskRecord]) -> list[TaskRecord]:
    """The records whose verdict rests on the port's own tests (or on none)."""
    return [r for r in records if not r.translated_verdict]


def translated_records(records: list[TaskRecord]) -> list[TaskRecord]:
    """The records judged with tests translated from JUnit (TaskRecord.translated_verdict)."""
    return [r for r in records if r.translated_verdict]


def reduced_trust(records: list[TaskRecord]) -> list[TaskRecord]:
    """The records whose tests ran with a capability the Java original reaches (`trust: reduced (...)`):
    a candidate that did not compile, or whose tests did not run, ran with nothing."""
    return [r for r in records if (r.result or {}).get("trust") and (r.result or {}).get("tests_run", 1) > 0]


def trust_categories(records: list[TaskRecord]) -> list[str]:
    """The capabilities the reduced-trust verdicts among `records` ran with (read from their notes)."""
    found = set()
    for r in reduced_trust(records):
        m = _GRANTED.search(r.result["trust"])
        found.update(c.strip() for c in (m.group(1).split(",") if m else ()) if c.strip())
    return sorted(found)


_GRANTED = re.compile(r"trust: reduced \(([^()]*?) allowed")


class RunStore:
    """Results of one run folder, keyed by (config, dataset, task_id)."""

    def __init__(self, run_dir: Path):
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = results_file(run_dir)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, SCHEMA_VERSION):
            raise RuntimeError(f"{self.path} has schema {version}, expected {SCHEMA_VERSION}")
        self._db.executescript(_SCHEMA)
        if version == 1:                # a run folder of the previous version: its rows have no progress
            self._db.execute("ALTER TABLE results ADD COLUMN progress_json TEXT")
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def add(self, rec: TaskRecord) -> None:
        """Record one finished task; a second record for the same key replaces the first."""
        if rec.status not in TASK_STATUSES:
            raise ValueError(f"unknown status {rec.status!r}")
        row = asdict(rec)
        result = row.pop("result")
        progress = row.pop("progress")
        row["result_json"] = redact(json.dumps(result)) if result is not None else None
        row["progress_json"] = redact(json.dumps(progress)) if progress else None
        row["error"] = redact(row["error"]) if row["error"] else row["error"]
        row["compiled"], row["passed"] = int(rec.compiled), int(rec.passed)
        cols = ", ".join(row)
        marks = ", ".join(f":{c}" for c in row)
        with self._db:
            self._db.execute(f"INSERT OR REPLACE INTO results ({cols}) VALUES ({marks})", row)

    def done(self, config: str, dataset: str) -> set[str]:
        """Task ids already finished for this configuration and dataset."""
        rows = self._db.execute(
            "SELECT task_id FROM results WHERE config=? AND dataset=?", (config, dataset))
        return {r[0] for r in rows}

    def records(self) -> list[TaskRecord]:
        cur = self._db.execute("SELECT * FROM results ORDER BY config, dataset, task_id")
        names = [d[0] for d in cur.description]
        out = []
        for values in cur:
            row = dict(zip(names, values))
            row.pop("compiled"), row.pop("passed")
            result_json, progress_json = row.pop("result_json"), row.pop("progress_json")
            out.append(TaskRecord(**row, result=json.loads(result_json) if result_json else None,
                                  progress=json.loads(progress_json) if progress_json else None))
        return out

    def set_aside(self, task_ids: list[str], why: str) -> None:
        """Exactly `task_ids` are set aside, no longer the run's tasks (a member written by hand since): their
        records leave the run's results for meta "set_aside" (task id -> the status it had and `why`; one set
        aside before keeps its entry), and a task set aside before but not now is the run's again."""
        before = self.meta("set_aside", {})
        aside = {}
        with self._db:
            for tid in task_ids:
                row = self._db.execute("SELECT status FROM results WHERE task_id = ?", (tid,)).fetchone()
                aside[tid] = {"status": row[0], "why": why} if row else before.get(tid, {"status": None, "why": why})
                self._db.execute("DELETE FROM results WHERE task_id = ?", (tid,))
        self.set_meta("set_aside", aside)

    def set_meta(self, key: str, value) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def meta(self, key: str, default=None):
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def close(self) -> None:
        self._db.close()
