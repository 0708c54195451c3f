"""A constructor's `super(args)` that the port's base class cannot take (CS1729: HdrHistogram's copy constructor
Histogram(AbstractHistogram) where HdrHistogram.NET's AbstractHistogram has only the three-value one): where
Java's base constructor of that arity delegates with `this(...)`, the call goes straight to the constructor it
delegates to, its parameters replaced by the call's arguments (`: base(source.getLowestTrackableValue(), ...)`).
The base constructor's statements after `this(...)` are not carried; the check's report names them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tree_sitter import Node

from repotrans.skeleton.lines import node_text
from repotrans.translator.java2cs import MethodTranslator, parse_java_method

if TYPE_CHECKING:
    from repotrans.index.model import TypeDecl
    from repotrans.index.store import Index


@dataclass(frozen=True)
class Delegation:
    """A Java constructor of the superclass that begins with `this(args)`."""
    params: tuple[str, ...]
    args: tuple[str, ...]          # the Java texts of this(...)'s arguments
    rest: tuple[str, ...]          # the Java texts of the statements after it


@dataclass(frozen=True)
class BaseFallback:
    """The base call a constructor takes when the port's base cannot take its own, and what it leaves out."""
    init: str                      # ` : base(...)`
    dropped: tuple[str, ...]


def delegations(index: "Index", t: "TypeDecl") -> dict[int, Delegation]:
    """Arity -> the delegation of each constructor of `t`'s Java superclass that begins with `this(...)`."""
    sup = next((s for s in index.supertypes(t, depth=1) if s.kind == "class"), None)
    out: dict[int, Delegation] = {}
    for m in index.methods(sup.id) if sup is not None else []:
        if m.kind != "constructor" or not m.body:
            continue
        node, _ = parse_java_method(m)
        statements = [c for c in node.child_by_field_name("body").named_children if "comment" not in c.type]
        first = statements[0] if statements else None
        if first is None or first.type != "explicit_constructor_invocation" \
                or node_text(first.child_by_field_name("constructor")) != "this":
            continue
        args = first.child_by_field_name("arguments")
        out[len(m.params)] = Delegation(tuple(p.name for p in m.params),
                                        tuple(node_text(a) for a in args.named_children if "comment" not in a.type),
                                        tuple(node_text(s) for s in statements[1:]))
    return out


def fallback(call: Node, d: Delegation, tr: MethodTranslator) -> BaseFallback | None:
    """`call` (a Java `super(args)`) sent through the delegation `d`, translated by `tr`; None if it cannot be."""
    given = [node_text(a) for a in call.child_by_field_name("arguments").named_children if "comment" not in a.type]
    if len(given) != len(d.params):
        return None
    by_param = {p: a if re.fullmatch(r"[\w.]+", a) else f"({a})" for p, a in zip(d.params, given)}
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, d.params)) + r")\b") if d.params else None
    args = [pattern.sub(lambda m: by_param[m.group(1)], a) if pattern else a for a in d.args]
    node, _ = parse_java_method(f"X() {{ super({', '.join(args)}); }}")
    first = node.child_by_field_name("body").named_children[0]
    try:
        tr._s_explicit_constructor_invocation(first)
    except Exception:   # noqa: BLE001 - an argument the translator has no rule for: no fallback
        return None
    return BaseFallback(tr.ctor_init, d.rest)
