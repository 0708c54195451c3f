"""The index is opened and the mapping loaded only where a run or a tool is built: everything below
receives the opened index and the loaded mapping (or the object that holds them) and never opens
them again behind its signature.

Read with ast from every module: a call `Index.open(...)` or `load_mapping(...)` outside the places
below fails, naming the module and the line. Each place says why it builds one.
"""
from __future__ import annotations

import ast
from pathlib import Path

import repotrans

ROOT = Path(repotrans.__file__).parent

BUILDERS = {
    "index/store.py": "the index itself (a copy of it, re-rooted: Index.copy_to)",
    "runs/run.py": "the run: opens its index once and hands out its mapping",
    "runs/workload.py": "an executor's per-process run context (a Ray node, or a workload of another workspace)",
    "runs/ray_validation.py": "a Ray node's per-process context for a dataset's validation, on its own copy",
    "runs/ablate.py": "the ablation run: one index per dataset's workspace",
    "sync/run.py": "the sync run: both revisions' indexes",
    "sync/steps.py": "the sync run's mapping of the new revision (the upstream history's pairs merged in)",
    "agents/session.py": "a translate session's tool context",
    "tools/context.py": "a tool context built from a workdir",
    "retrieval/retriever.py": "a retriever built from a workdir",
    "reports/task_files.py": "a report over a finished run folder's indexes",
    "skeleton/create.py": "the skeleton tool: rewrites the port, re-indexes it and maps its new state",
    "skeleton/missing.py": "the create-missing tool: as the skeleton tool",
}
BUILDER_ROOMS = {
    "cli": "a one-shot command builds the index and the tool it runs",
    "datasets": "the dataset build run: the oracle's index and the masked workspace's",
}


def _calls(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "open" and isinstance(func.value, ast.Name) \
                and func.value.id == "Index":
            found.append((node.lineno, "Index.open"))
        elif isinstance(func, ast.Name) and func.id == "load_mapping":
            found.append((node.lineno, "load_mapping"))
    return found


def test_index_and_mapping_are_opened_only_where_a_run_or_a_tool_is_built():
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in BUILDERS or rel.split("/", 1)[0] in BUILDER_ROOMS or rel == "mapping/load.py":
            continue
        for line, call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            wrong.append(f"repotrans/{rel}:{line}: {call}")
    assert not wrong, ("opened below a run or a tool (take the index or mapping as a parameter):\n"
                       + "\n".join(wrong))


def test_every_listed_builder_still_builds():
    """A place that no longer opens anything leaves the list (the list is the map of where runs are built)."""
    idle = [rel for rel in BUILDERS if not _calls(ast.parse((ROOT / rel).read_text(encoding="utf-8")))]
    assert not idle, f"listed as a builder but opens nothing: {idle}"
