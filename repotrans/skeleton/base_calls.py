"""A constructor's `super(args)` that the port's base class cannot take (CS1729: HdrHistogram's copy constructor
Histogram(AbstractHistogram) where HdrHistogram.NET's AbstractHistogram has only the three-value one): where
Java's base constructor of that arity delegates with `this(...)`, the call goes straight to the constructor it
delegates to, its parameters replaced by the call's arguments (`: base(source.getLowestTrackableValue(), ...)`).
The base constructor's statements after `this(...)` are not carried; the check's report names them.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from repotrans.skeleton.lines import node_text
from repotrans.translator.base_calls import Delegation, delegated
from repotrans.translator.java2cs import MethodTranslator, parse_java_method


@dataclass(frozen=True)
class BaseFallback:
    """The base call a constructor takes when the port's base cannot take its own, and what it leaves out."""
    init: str                      # ` : base(...)`
    dropped: tuple[str, ...]


def fallback(call: Node, d: Delegation, tr: MethodTranslator) -> BaseFallback | None:
    """`call` (a Java `super(args)`) sent through the delegation `d`, translated by `tr`; None if it cannot be."""
    given = [node_text(a) for a in call.child_by_field_name("arguments").named_children if "comment" not in a.type]
    args = delegated(given, d)
    if args is None:
        return None
    node, _ = parse_java_method(f"X() {{ super({', '.join(args)}); }}")
    first = node.child_by_field_name("body").named_children[0]
    try:
        tr._s_explicit_constructor_invocation(first)
    except Exception:   # noqa: BLE001 - an argument the translator has no rule for: no fallback
        return None
    return BaseFallback(tr.ctor_init, d.rest)
