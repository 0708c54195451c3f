"""Every module says what it is, and nothing else: a docstring, never an issue number (what made a module
belongs in the commit that made it); and no process-wide flag (a module-level threading.Event) that one
run could set under another's feet (the run's stop event is agents.workdir.RunCaches.stop)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import repotrans

ROOT = Path(repotrans.__file__).parent
ISSUE = re.compile(r"\bissue \d+", re.IGNORECASE)


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"), str(p))) for p in sorted(ROOT.rglob("*.py"))]


def doc_problem(tree: ast.Module, package_init: bool) -> str | None:
    """What is wrong with a module's docstring, if anything."""
    doc = ast.get_docstring(tree)
    if not doc:
        return None if package_init else "no docstring"
    found = ISSUE.search(doc)
    return f"names {found.group(0)!r}" if found else None


def flags(tree: ast.Module) -> list[int]:
    """Lines binding a module-level name to a threading.Event (or any Event())."""
    lines = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "Event":
                lines.append(node.lineno)
    return lines


def test_every_module_says_what_it_is_and_never_which_issue_made_it():
    bad = [f"{path.relative_to(ROOT)}: {problem}" for path, tree in _modules()
           if (problem := doc_problem(tree, path.name == "__init__.py"))]
    assert bad == []


def test_no_module_holds_a_process_wide_flag():
    assert [f"{path.relative_to(ROOT)}:{line}" for path, tree in _modules() for line in flags(tree)] == []


def test_the_checks_see_what_they_look_for():
    """Both checks on modules written to fail them, and on one that passes."""
    bad = ast.parse('"""Made for issue 12."""\nimport threading\n_STOP = threading.Event()\n')
    assert doc_problem(bad, False) == "names 'issue 12'" and flags(bad) == [3]
    assert doc_problem(ast.parse("x = 1\n"), False) == "no docstring"
    good = ast.parse('"""What it is."""\nimport threading\n\n\ndef f():\n    return threading.Event()\n')
    assert doc_problem(good, False) is None and flags(good) == []
