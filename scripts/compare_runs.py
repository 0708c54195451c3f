"""Compare two batch runs of the same dataset task by task (issue 28's "same results" check).

  python scripts/compare_runs.py OLD_RUN_DIR NEW_RUN_DIR [--show N]

Each run folder holds `results.sqlite` (one row per task). A task is
  identical          same status, compiled, passed, error and candidate code;
  candidate changed  the candidate code differs (a translation change: the verdict may follow it);
  verdict changed    byte-identical candidate, different status/compiled/passed/error: each is listed with both
                     runs' errors, first failures and the judge's stated reason, since only a verdict change
                     can point at the judge (the reason is what names the verdict rule that moved it);
  only in one run    a task the other run does not have.
Prints one count line per class, then the verdict changes (and up to --show candidate changes).
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from repotrans.runs.layout import results_file

Row = dict[str, object]


def load(run: Path) -> dict[str, Row]:
    """Task id -> its row of the run's results.sqlite."""
    db = results_file(run)
    if not db.is_file():
        sys.exit(f"error: {db} does not exist; give a batch's --run-dir")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in conn.execute(
            "SELECT config, task_id, status, compiled, passed, code, error, result_json FROM results")]
    finally:
        conn.close()
    configs = {r["config"] for r in rows}
    if len(configs) > 1:
        sys.exit(f"error: {db} holds {len(configs)} configurations; compare runs of one configuration")
    return {r["task_id"]: r for r in rows}


def verdict(row: Row) -> tuple:
    """The verdict part of a row."""
    return row["status"], row["compiled"], row["passed"], row["error"]


def first_failure(row: Row) -> str:
    """The row's error, else its first test failure (name and message), else ''."""
    if row["error"]:
        return str(row["error"]).splitlines()[0][:160]
    failures = json.loads(row["result_json"] or "{}").get("failures") or []
    if not failures:
        return ""
    f = failures[0]
    return f"{len(failures)} failures, first {f.get('name', '')}: {(f.get('message') or '')[:120]}"


def stackless(row: Row) -> int:
    """How many of the row's test failures carry no stack (NUnit 2's 'TestFixtureSetUp failed in X')."""
    return sum(1 for f in json.loads(row["result_json"] or "{}").get("failures") or [] if not f.get("stack"))


def reason(row: Row) -> str:
    """The judge's stated reason for the row's verdict ('' when it gave none)."""
    return str(json.loads(row["result_json"] or "{}").get("reason") or "")[:200]


def classify(old: dict[str, Row], new: dict[str, Row]) -> dict[str, list[str]]:
    """Class name -> task ids in it."""
    out: dict[str, list[str]] = {"identical": [], "candidate changed": [], "verdict changed": [],
                                 "only in old": [], "only in new": []}
    for task in sorted(old.keys() | new.keys()):
        if task not in new:
            out["only in old"].append(task)
        elif task not in old:
            out["only in new"].append(task)
        elif old[task]["code"] != new[task]["code"]:
            out["candidate changed"].append(task)
        elif verdict(old[task]) != verdict(new[task]):
            out["verdict changed"].append(task)
        else:
            out["identical"].append(task)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--show", type=int, default=10, help="candidate changes to list (default 10)")
    args = ap.parse_args(argv)
    old, new = load(args.old), load(args.new)
    classes = classify(old, new)
    for name, tasks in classes.items():
        print(f"{name:18} {len(tasks)}")
    moves = Counter(f"{old[t]['status']} -> {new[t]['status']}" for t in classes["candidate changed"])
    if moves:
        print("candidate changed, by status:", ", ".join(f"{k}: {v}" for k, v in sorted(moves.items())))
    for task in classes["verdict changed"]:
        o, n = old[task], new[task]
        print(f"\nVERDICT {task}: {o['status']} -> {n['status']}\n  old: {first_failure(o)}\n  new: {first_failure(n)}")
        if reason(o) or reason(n):
            print(f"  old reason: {reason(o)}\n  new reason: {reason(n)}")
        if stackless(o) != stackless(n):
            print(f"  failures without a stack: {stackless(o)} -> {stackless(n)}")
    for task in classes["candidate changed"][:args.show]:
        print(f"candidate {task}: {old[task]['status']} -> {new[task]['status']}")


if __name__ == "__main__":
    main()
