"""No module-level mutable cache: what a run computes or loads belongs to an object the run context
builds once and passes down (agents.workdir.Workdir and RunCaches, tools.context.Lookups), never to a
module global that outlives a workload, hides an input from a test and is not shipped to a Ray worker.

Read with ast from every module: a name bound at module level (or in a class body, shared by every
instance) to a dict, list or set (a literal, a comprehension, or dict()/list()/set()/defaultdict()/
OrderedDict()/Counter()/deque()/WeakKeyDictionary()/...) is a cache when it is empty at birth (it can
only be there to be filled) or when the module changes it (an item assigned or deleted, a mutating
method called on it, or a `global` statement naming it). A table written out once and only read (the
JDK names, opcode widths, the providers) is a constant and is allowed.
"""
from __future__ import annotations

import ast
from pathlib import Path

import repotrans

ROOT = Path(repotrans.__file__).parent

CONTAINERS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
CONTAINER_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "WeakKeyDictionary",
                   "WeakValueDictionary", "WeakSet", "ChainMap"}
MUTATORS = {"append", "add", "update", "setdefault", "pop", "popitem", "clear", "extend", "insert", "remove",
            "discard", "appendleft", "extendleft", "__setitem__", "__delitem__", "difference_update",
            "intersection_update", "symmetric_difference_update"}


def _container(value: ast.expr | None) -> tuple[bool, bool]:
    """(is a mutable container, is empty at birth)."""
    if isinstance(value, CONTAINERS):
        empty = isinstance(value, (ast.Dict, ast.List, ast.Set)) and not (
            value.keys if isinstance(value, ast.Dict) else value.elts)
        return True, empty
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in CONTAINER_CALLS:
            return True, not value.args and not value.keywords or name in ("defaultdict", "WeakKeyDictionary",
                                                                            "WeakValueDictionary", "WeakSet")
    return False, False


def _bound(body: list[ast.stmt]) -> dict[str, tuple[int, bool]]:
    """Name -> (line, empty at birth) of the mutable containers bound by the statements of `body`."""
    out = {}
    for stmt in body:
        targets, value = [], None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        mutable, empty = _container(value)
        if mutable:
            out.update({t.id: (stmt.lineno, empty) for t in targets if isinstance(t, ast.Name)})
    return out


def _changed(tree: ast.AST) -> set[str]:
    """Names the module changes in place or rebinds through `global`."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            out |= set(node.names)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and isinstance(node.value, ast.Name):
            out.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Name):
            out.add(node.func.value.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def module_caches(source: str, where: str = "<module>") -> list[str]:
    """'where:line name' of each module-level (or class-level) mutable cache in `source`."""
    tree = ast.parse(source, where)
    changed = _changed(tree)
    found = []
    scopes = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in scopes:
        for name, (line, empty) in _bound(body).items():
            if empty or name in changed:
                found.append(f"{where}:{line} {name}")
    return found


def test_no_module_level_mutable_cache():
    found = [hit for path in sorted(ROOT.rglob("*.py"))
             for hit in module_caches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent)))]
    assert found == [], ("module-level mutable state (keep it on an object the run context builds, e.g. "
                         "agents.workdir.RunCaches, and pass it down): " + ", ".join(found))


def test_the_check_tells_a_cache_from_a_constant_table():
    source = '''
import threading
from collections import defaultdict
_LOADED: dict[tuple, object] = {}
_SEEN = set()
_BY = defaultdict(list)
_FILLED = {"a": 1}
_TABLE = {"int": "uint", "long": "ulong"}
NAMES = ("a", "b")
PROVIDERS: dict[str, str] = {"builtin": "x:y"}

class Holder:
    shared = []
    kinds = {"x": 1}

    def __init__(self):
        self.own = {}

def load(key):
    _FILLED[key] = 2
    return _TABLE.get(key), PROVIDERS[key], Holder.kinds["x"]
'''
    assert [hit.split()[1] for hit in module_caches(source)] == ["_LOADED", "_SEEN", "_BY", "_FILLED", "shared"]
