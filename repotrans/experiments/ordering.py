"""Order batch tasks callees-before-callers, from the call references in their Java bodies."""
from __future__ import annotations

from collections import defaultdict

import tree_sitter_java
from tree_sitter import Language, Parser, Query, QueryCursor

from repotrans.index.model import Method

_JAVA = Language(tree_sitter_java.language())
_CALLS = Query(_JAVA, """
(method_invocation name: (identifier) @name.reference.call arguments: (argument_list) @args)
(object_creation_expression type: (_) @name.reference.new arguments: (argument_list) @args)
""")


def java_calls(body: str) -> set[tuple[str, int]]:
    """(name, argument count) of every method call and `new T(...)` in a Java method body.

    Constructor calls are named "<init>:T" so that they meet the constructors of type T.
    """
    src = f"class __X {{ void __m() {body} }}".encode()
    tree = Parser(_JAVA).parse(src)
    calls = set()
    for _, caps in QueryCursor(_CALLS).matches(tree.root_node):
        args = caps["args"][0]
        if "name.reference.call" in caps:
            name = caps["name.reference.call"][0].text.decode()
        else:
            name = "<init>:" + caps["name.reference.new"][0].text.decode().split("<")[0]
        calls.add((name, args.named_child_count))
    return calls


def _call_key(m: Method) -> str:
    if m.kind == "constructor":
        return "<init>:" + m.type_id.rsplit(".", 1)[-1]
    return m.name


def dependency_graph(tasks: dict[str, Method]) -> dict[str, set[str]]:
    """Task id -> ids of the tasks it calls (by name and arity; varargs accept any count above)."""
    by_name: dict[str, list[tuple[str, Method]]] = defaultdict(list)
    for tid, m in tasks.items():
        by_name[_call_key(m)].append((tid, m))
    deps: dict[str, set[str]] = {tid: set() for tid in tasks}
    for tid, m in tasks.items():
        for name, argc in java_calls(m.body or "{}"):
            for other, om in by_name.get(name, []):
                n = len(om.params)
                varargs = n > 0 and om.params[-1].varargs
                if other != tid and (argc == n or (varargs and argc >= n - 1)):
                    deps[tid].add(other)
    return deps


def order_levels(deps: dict[str, set[str]]) -> list[list[str]]:
    """Levels of task ids: every task comes after the tasks it depends on; a level runs in parallel.

    Mutual recursion (a cycle) is collapsed into one level, in id order.
    """
    comp = strongly_connected(deps)
    level: dict[int, int] = {}

    def depth(c: int, members: dict[int, list[str]]) -> int:
        if c not in level:
            below = {comp[d] for t in members[c] for d in deps[t]} - {c}
            level[c] = 1 + max((depth(b, members) for b in below), default=-1)
        return level[c]

    members: dict[int, list[str]] = defaultdict(list)
    for t, c in comp.items():
        members[c].append(t)
    levels: dict[int, list[str]] = defaultdict(list)
    for c in sorted(members):
        levels[depth(c, members)].extend(members[c])
    return [sorted(levels[i]) for i in sorted(levels)]


def strongly_connected(deps: dict[str, set[str]]) -> dict[str, int]:
    """Tarjan's algorithm, iterative, over a graph whose every node is a key (tasks here; tests/test_layers.py
    gives it the import graph); returns node -> component number."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    comp: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in sorted(deps):
        if root in index:
            continue
        work = [(root, iter(sorted(deps[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(deps[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                cid = len(set(comp.values()))
                while True:
                    t = stack.pop()
                    on_stack.discard(t)
                    comp[t] = cid
                    if t == node:
                        break
    return comp
