"""Order batch tasks callees-before-callers, from the call references in their Java bodies.

A call is an edge to a task of its name and arity unless its receiver is of a JDK type the callee's
class is not (`sb.toString()` on a StringBuilder, `s.equals(t)` on a String, `Math.max(a, b)`
are no edges to a project's `Patch.toString()`, `Key.equals(Object)` or `Range.max(int, int)`): the
receiver's declared type (parameters and locals, mapping.api_sites) is resolved before the edge."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import tree_sitter_java
from tree_sitter import Language, Parser, Query, QueryCursor

from repotrans.index.typename import simple_name
from repotrans.index.model import Method
from repotrans.mapping.api_sites import java_sites
from repotrans.translator.cs_types import jdk_table

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


def receivers(m: Method) -> dict[tuple[str, int], set[str]]:
    """(name, argument count) of each call in `m`'s body -> the Java types it is made on ('' where the
    call is unqualified or the receiver's type is unknown)."""
    method = m if m.signature.strip() else replace(m, signature="void __m()")
    own = simple_name(m.type_id)
    out: dict[tuple[str, int], set[str]] = defaultdict(set)
    for site in java_sites(method, {}, own)[0]:
        if site.kind == "static":
            owner = site.key.rsplit(".", 1)[0]
            out[(site.name, len(site.args))].add("" if owner == own else owner)
        elif site.kind == "call":
            owner = site.key.split("#", 1)[0]
            out[(site.name, len(site.args))].add("" if owner == "?" else owner)
    return out


def _jdk_names() -> frozenset[str]:
    table = jdk_table()
    return frozenset(table["types"]) | frozenset(table["statics"]) | frozenset(table["kinds"])


def dependency_graph(tasks: dict[str, Method]) -> dict[str, set[str]]:
    """Task id -> ids of the tasks it calls (by name and arity; varargs accept any count above), without
    the calls made on a JDK type other than the callee's class."""
    by_name: dict[str, list[tuple[str, Method]]] = defaultdict(list)
    for tid, m in tasks.items():
        by_name[_call_key(m)].append((tid, m))
    jdk = _jdk_names()
    deps: dict[str, set[str]] = {tid: set() for tid in tasks}
    for tid, m in tasks.items():
        typed = receivers(m)
        for name, argc in java_calls(m.body or "{}"):
            owners = typed.get((name, argc), {""}) if not name.startswith("<init>:") else {""}
            for other, om in by_name.get(name, []):
                n = len(om.params)
                varargs = n > 0 and om.params[-1].varargs
                cls = simple_name(om.type_id)
                if all(o in jdk and o != cls for o in owners):
                    continue          # only ever called on a JDK type: not this task's method
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
