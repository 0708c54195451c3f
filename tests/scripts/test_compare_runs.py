"""scripts/compare_runs.py: a verdict change is only ever reported for a byte-identical candidate (issue 28)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from repotrans.runs.store import RunStore, TaskRecord

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_runs.py"


def _script():
    spec = importlib.util.spec_from_file_location("compare_runs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(folder: Path, rows: list[tuple]) -> Path:
    store = RunStore(folder)
    for task, status, code, *error in rows:
        failures = [{"name": "T.t", "message": "Expected 1 but was 2"}] if status == "test_failure" else []
        store.add(TaskRecord(config="builtin", dataset="d", task_id=task, status=status, code=code, error=(error or [None])[0],
                             result={"status": status, "failures": failures,
                                     "reason": "waits for T.t's placeholder" if status == "blocked" else ""}))
    store.close()
    return folder


def test_classes_of_change(tmp_path, capsys):
    cmp = _script()
    old = _run(tmp_path / "old", [("A", "passed", "x"), ("B", "test_failure", "y"), ("C", "compile_error", "z"),
                                  ("D", "passed", "w"), ("F", "runtime_error", "u", "crashed")])
    new = _run(tmp_path / "new", [("A", "passed", "x"), ("B", "blocked", "y"), ("C", "passed", "z2"),
                                  ("E", "passed", "v"), ("F", "runtime_error", "u", "timed out")])
    classes = cmp.classify(cmp.load(old), cmp.load(new))
    assert classes == {"identical": ["A"], "candidate changed": ["C"], "verdict changed": ["B", "F"],
                       "only in old": ["D"], "only in new": ["E"]}
    cmp.main([str(old), str(new)])
    out = capsys.readouterr().out
    assert "VERDICT B: test_failure -> blocked" in out and "1 failures, first T.t: Expected 1 but was 2" in out
    assert "compile_error -> passed: 1" in out
    assert "old reason: \n  new reason: waits for T.t's placeholder" in out
    assert "failures without a stack: 1 -> 0" in out
