"""Which statement of the port's body stands for which statement of the old Java body (for `policy.edit`):
top-level statements aligned by kind (one to one when the kinds agree in order, else along their longest
common run), and the statement lists a compound statement nests with its head (condition, labels, catch
types), so an edit can descend into a compound statement whose head Java kept."""
from __future__ import annotations

import difflib

from tree_sitter import Node

COMMENTS = ("comment", "line_comment", "block_comment")


def statements(block: Node | None) -> list[Node]:
    return [c for c in (block.named_children if block is not None else []) if c.type not in COMMENTS]


def norm(text: str) -> str:
    return " ".join(text.split())


_KINDS = {"local_variable_declaration": "local_declaration_statement", "enhanced_for_statement": "foreach_statement",
          "switch_expression": "switch_statement", "synchronized_statement": "lock_statement"}


def _kind(node: Node) -> str:
    return _KINDS.get(node.type, node.type)


def positions(olds: list[Node], cs: list[Node]) -> list[int | None] | None:
    """The C# statement each old Java statement stands as (None: the port has none for it), aligned by
    statement kind: one to one when the kinds agree in order, else along the longest common run of kinds
    (the port added or dropped a statement of its own); None when fewer than half align."""
    kinds = [_kind(o) for o in olds]
    cs_kinds = [c.type if c.type != "for_statement" else "for_statement" for c in cs]
    if len(olds) == len(cs) and all(k == c or {k, c} <= {"for_statement", "foreach_statement"}
                                    for k, c in zip(kinds, cs_kinds)):
        return list(range(len(cs)))
    matcher = difflib.SequenceMatcher(None, kinds, cs_kinds, autojunk=False)
    pos: list[int | None] = [None] * len(olds)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            pos[a + k] = b + k
    return pos if sum(p is not None for p in pos) * 2 >= len(olds) else None


def statement_span(pos: list[int | None], i1: int, i2: int, n_cs: int) -> tuple[int, int] | None:
    """The C# statements [start, end) the old Java statements [i1, i2) stand as (i1 == i2: where to
    insert), None when they are not a contiguous run the port has."""
    if i1 == i2:
        if i1 < len(pos) and pos[i1] is not None:
            return pos[i1], pos[i1]
        before = pos[i1 - 1] if i1 > 0 else -1
        return (before + 1, before + 1) if before is not None else None
    found = pos[i1:i2]
    if any(p is None for p in found) or found != list(range(found[0], found[0] + len(found))):
        return None
    return found[0], found[-1] + 1


JAVA_COMPOUNDS = {"while_statement": "while_statement", "for_statement": "for_statement",
               "enhanced_for_statement": "foreach_statement", "do_statement": "do_statement",
               "if_statement": "if_statement", "try_statement": "try_statement", "block": "block",
               "switch_expression": "switch_statement", "synchronized_statement": "lock_statement"}


def statement_lists(node: Node, java: bool) -> list[Node | list[Node]] | None:
    """The statement lists nested in a compound statement, in order (a single statement body as a list of
    one), or None for a statement that nests none."""
    t = node.type
    if t == "block":
        return [statements(node)]
    if t in ("while_statement", "for_statement", "enhanced_for_statement", "do_statement", "foreach_statement",
             "synchronized_statement", "lock_statement"):
        body = node.child_by_field_name("body")
        if body is None and t in ("synchronized_statement", "lock_statement"):
            body = next((c for c in node.named_children if c.type == "block"), None)
        return None if body is None else [statements(body) if body.type == "block" else [body]]
    if t == "if_statement":
        out = []
        for name in ("consequence", "alternative"):
            part = node.child_by_field_name(name)
            if part is not None:
                out.append(statements(part) if part.type == "block" else [part])
        return out
    if t == "try_statement":
        out = []
        for c in node.named_children:
            block = c if c.type == "block" else c.child_by_field_name("body") if c.type == "catch_clause" else \
                next((b for b in c.named_children if b.type == "block"), None) if c.type == "finally_clause" else None
            if block is not None:
                out.append(statements(block))
        return out
    if t in ("switch_expression", "switch_statement"):
        body = node.child_by_field_name("body")
        groups = [g for g in (body.named_children if body is not None else [])
                  if g.type in ("switch_block_statement_group", "switch_section")]
        return [[s for s in g.named_children if _is_statement(s, java)] for g in groups]
    return None


def _is_statement(node: Node, java: bool) -> bool:
    if node.type in COMMENTS or node.type == "switch_label":
        return False
    return node.type.endswith("statement") or node.type in ("block", "local_variable_declaration")


def head(node: Node, src: bytes, lists: list[list[Node]]) -> str:
    """A Java statement's text without its nested statements (its condition, labels, catch types)."""
    raw = src[node.start_byte:node.end_byte]
    spans = [(lst[0].start_byte, lst[-1].end_byte) for lst in lists if lst]
    for start, end in sorted(spans, reverse=True):       # one mark a list: an inserted statement is no head
        raw = raw[:start - node.start_byte] + b"\x00" + raw[end - node.start_byte:]
    return norm(raw.decode("utf-8", "replace"))
