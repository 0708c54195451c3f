"""Candidate schemata: several candidates' bodies compiled into one build, each behind its own switch.

The mutant-schemata idea (execution.schemata) applied to candidates: each switchable candidate's
member body becomes

    { if (!global::RepotransCandidateSwitch.On(<n>)) <current body> else <candidate block> }

so that with switch n on the member runs the candidate and with it off what the workspace has now
(the placeholder). A test process sees one switch (REPOTRANS_CANDIDATE_SWITCH, read once into a
private readonly field of an internal class), its own candidate's.

Only what behaves exactly as the per-candidate build when its switch is off may share a build, so a
candidate is switchable only when it replaces one method or constructor body by one well-formed
block and nothing else: no helpers, no new or changed declaration, no using directives, and nothing
the compiler turns into members, types or static state of its own (lambdas, anonymous methods and
types, local functions, query expressions, iterators, async, dynamic); no preprocessor directive.
Everything else is judged alone (`why_alone` says why). The text combined here keeps every line
of the candidate's own patched file addressable (`Switched.lines`), so compiler warnings and stack
frames name the lines the per-candidate path names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from tree_sitter import Node

from repotrans.execution.workspace.apply import Patch
from repotrans.index.model import Method
from repotrans.index.parse import parser_for

SWITCH_VAR = "REPOTRANS_CANDIDATE_SWITCH"
SWITCH_CLASS = "RepotransCandidateSwitch"
SWITCH_SOURCE = f"""// repotrans candidate schemata switch (generated)
internal static class {SWITCH_CLASS}
{{
    static readonly int active = Read();

    static int Read()
    {{
        int value;
        return int.TryParse(System.Environment.GetEnvironmentVariable("{SWITCH_VAR}"), out value) ? value : -1;
    }}

    internal static bool On(int id) {{ return id == active; }}
}}
"""
# node types whose code the compiler moves into members or types of its own (or that make the method a
# state machine): with the switch off these would still change the assembly's layout
GENERATING = {"lambda_expression": "a lambda", "anonymous_method_expression": "an anonymous method",
              "anonymous_object_creation_expression": "an anonymous type",
              "local_function_statement": "a local function", "query_expression": "a query expression",
              "yield_statement": "an iterator (yield)", "await_expression": "await"}
_WRAP = "class __Switched__ {\n"


class Body(NamedTuple):
    """One body of a switchable member: the current body's bytes [start, end) in the file, the candidate's
    block, the block's offset in the candidate's patched file, and the offset in the current body of its
    last statement (its opening brace when it has none)."""
    start: int
    end: int
    block: bytes
    at: int
    last: int


@dataclass
class Switchable:
    """One candidate that may share a build: its member, the blocks replacing the member's bodies (one
    for a method or constructor, one per accessor for a property or indexer), and its own patched file
    (the per-candidate path's text)."""
    method: Method
    bodies: list[Body]                          # in file order
    patched: bytes


@dataclass
class Switched:
    """One file with several candidates behind switches."""
    text: bytes
    lines: dict[int, dict[int, int]] = field(default_factory=dict)   # switch -> combined line -> own file line
    original_lines: dict[int, int] = field(default_factory=dict)     # combined line -> the unpatched file's line


def why_alone(original: bytes, method: Method, patch: Patch) -> str | Switchable:
    """The Switchable form of a planned candidate, or why it must be judged alone."""
    if method.kind not in ("method", "constructor", "property", "indexer"):
        return f"a {method.kind}: only method, constructor and accessor bodies are switched"
    if method.kind == "method" and not re.fullmatch(r"[A-Za-z_]\w*(<.*>)?", method.name.rsplit(".", 1)[-1]):
        return "an operator or conversion: the capability check would read its whole type, other candidates too"
    patched = patch.new_text.encode("utf-8")
    head, tail = method.start_byte, len(original) - method.end_byte
    if patched[:head] != original[:head] or patched[len(patched) - tail:] != original[method.end_byte:]:
        return "it changes its file outside the member (using directives)"
    current = _declaration(original[head:method.end_byte])
    if isinstance(current, str):
        return "its member's current declaration does not parse"
    now, now_bodies = current
    if not now_bodies or any(b.type != "block" for b in now_bodies):
        return "its member has an expression body or an accessor without a body"
    if any(_has(b, ("yield_statement", "await_expression")) for b in now_bodies) or any(
            c.type == "modifier" and c.text == b"async" for c in now.children):
        return "its current body is an iterator or async"
    found = _declaration(patched[head:len(patched) - tail])
    if isinstance(found, str):
        return found
    member, bodies = found
    if member.type != now.type:
        return "it is not the same kind of member"
    if any(b.type != "block" for b in bodies):
        return "its body is not one block (an expression body)"
    if _tokens(member, bodies) != _tokens(now, now_bodies) or len(bodies) != len(now_bodies):
        return "it changes the member's declaration (signature, modifiers, attributes, accessors or initializer)"
    for body in bodies:
        why = _generating(body, b"")
        if why:
            return f"its body has {why}: not the same code in a shared build with its switch off"
    wrap = len(_WRAP)
    return Switchable(method, [Body(head + c.start_byte - wrap, head + c.end_byte - wrap,
                                    patched[head + b.start_byte - wrap:head + b.end_byte - wrap],
                                    head + b.start_byte - wrap, _last_statement(c))
                               for c, b in zip(now_bodies, bodies)], patched)


def _declaration(text: bytes) -> tuple[Node, list[Node]] | str:
    """The one member `text` declares and its bodies (a method's or constructor's, or each accessor's),
    parsed in a wrapper class whose first byte is len(_WRAP) before the text's."""
    members = _members(parser_for("target").parse(_WRAP.encode() + text + b"\n}"))
    if members is None:
        return "its declaration does not parse"
    if len(members) != 1:
        return "it adds members (helpers) or is not one member"
    member = members[0]
    if member.type in ("method_declaration", "constructor_declaration"):
        body = member.child_by_field_name("body")
        return member, [body] if body is not None else []
    if member.type in ("property_declaration", "indexer_declaration"):
        accessors = member.child_by_field_name("accessors")
        if accessors is None:
            return member, []
        found = []
        for accessor in (c for c in accessors.named_children if c.type == "accessor_declaration"):
            body = accessor.child_by_field_name("body") or next(
                (c for c in accessor.children if c.type in ("block", "arrow_expression_clause")), None)
            if body is None:
                return member, []
            found.append(body)
        return member, found
    return f"a {member.type.replace('_', ' ')}: not switched"


def _members(tree) -> list[Node] | None:
    """The members of the one wrapper class of a parse (comments left out); None when it has errors."""
    root = tree.root_node
    if root.has_error or len(root.named_children) != 1 or root.named_children[0].type != "class_declaration":
        return None
    body = root.named_children[0].child_by_field_name("body")
    return [c for c in body.named_children if c.type != "comment"] if body is not None else None


def _generating(node: Node | None, text: bytes) -> str:
    """What in this body the compiler compiles apart (GENERATING, `dynamic`, a preprocessor directive)."""
    if node is None:
        return ""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in GENERATING:
            return GENERATING[n.type]
        if n.type.startswith("preproc") or n.type.startswith("#"):
            return "a preprocessor directive"
        if n.type == "identifier":
            name = _identifier(n.text)
            if name == "dynamic":
                return "dynamic"
            if name == SWITCH_CLASS:
                return "the switches' own class (absent from its own build)"
        stack.extend(n.children)
    return ""


def _identifier(text: bytes) -> str:
    """An identifier as the compiler reads it: `@` dropped, \\uXXXX and \\UXXXXXXXX escapes decoded."""
    name = text.decode("utf-8", "replace").lstrip("@")
    return re.sub(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})", lambda m: chr(int(m.group(1) or m.group(2), 16)), name)


def _tokens(member: Node, bodies: list[Node]) -> list[bytes]:
    """The leaf tokens of a declaration but its bodies, comments left out."""
    out: list[bytes] = []
    stack = [member]
    while stack:
        n = stack.pop()
        if n.type == "comment" or any(n == b for b in bodies):
            continue
        if n.child_count == 0:
            out.append(n.text)
        stack.extend(reversed(n.children))
    return out


def combine(original: bytes, items: list[tuple[Switchable, int]]) -> Switched:
    """`original` with each item's member bodies behind its switch; per switch, the line map from the
    combined text to the item's own patched file (lines of other candidates and of the scaffolding
    have no counterpart there).

    The candidate comes last, `{ if (!On(n)) <current> else <candidate> }`: mono names a frame by the
    statement after the native return address, so a throw ending a branch that other code follows is
    reported on that code's first line. Last in the method, the candidate's throws are named as in
    its own build; the current body's last throw is named by the candidate's first line, which the
    maps of the other switches (and `original_lines`) therefore send to that throw's line."""
    bodies = sorted((body, switch) for cand, switch in items for body in cand.bodies)
    pieces: list[tuple[bytes, str, int, int]] = []      # (text, kind, switch, original offset)
    cursor = 0
    for (start, end, block, _, last), switch in bodies:
        if start < cursor:
            raise ValueError(f"switched bodies overlap at byte {start}")
        current = original[start:end]
        pieces += [(original[cursor:start], "orig", -1, cursor),
                   (f"{{ if (!global::{SWITCH_CLASS}.On({switch})) ".encode(), "scaffold", -1, -1),
                   (current, "current", switch, start), (b" else ", "scaffold", -1, -1),
                   (block, "cand", switch, start + last), (b" }", "scaffold", -1, -1)]
        cursor = end
    pieces.append((original[cursor:], "orig", -1, cursor))
    out = Switched(b"".join(p[0] for p in pieces))
    for cand, switch in items:
        out.lines[switch] = _line_map(original, pieces, cand, switch)
    out.original_lines = _line_map(original, pieces, None, -1)
    return out


def _has(node: Node, types: tuple[str, ...]) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            return True
        stack.extend(n.children)
    return False


def _last_statement(block: Node) -> int:
    """Offset in `block` of its last statement (its opening brace when it has none)."""
    statements = [c for c in block.named_children if c.type != "comment"]
    return statements[-1].start_byte - block.start_byte if statements else 0


def _starts(text: bytes) -> list[int]:
    return [0] + [i + 1 for i, c in enumerate(text) if c == 10 and i + 1 < len(text)]


def _line_map(original: bytes, pieces: list[tuple[bytes, str, int, int]], cand: Switchable | None,
              switch: int) -> dict[int, int]:
    """Combined line -> line of `cand`'s own patched file (None: of the unpatched file), for the lines
    that exist there; every line of another switch's candidate stands for its current body's last
    statement (see `combine`)."""
    own_line = _own_lines(original, cand)
    blocks = iter(cand.bodies) if cand is not None else iter(())
    lines: dict[int, int] = {}
    line = 1
    for text, kind, key, offset in pieces:
        first = None
        if kind == "cand" and key == switch:
            first = cand.patched.count(b"\n", 0, next(blocks).at) + 1
        for n, at in enumerate(_starts(text)):
            if kind == "orig" or (kind == "current" and key != switch):
                target = own_line(offset + at)
            elif kind == "cand":
                target = first + n if key == switch else own_line(offset)
            else:
                target = None
            if target is not None:
                lines.setdefault(line + n, target)
        line += text.count(b"\n")
    return lines


def _own_lines(original: bytes, cand: Switchable | None):
    """original offset -> the line of `cand`'s patched file holding it (None: not there); no cand: the
    unpatched file's line."""
    def line_of(text: bytes, offset: int) -> int:
        return text.count(b"\n", 0, offset) + 1

    if cand is None:
        return lambda offset: line_of(original, offset)
    m, patched = cand.method, cand.patched
    shift = patched.count(b"\n") - original.count(b"\n")      # lines the candidate adds
    ends = [m.start_byte] + [b.end for b in cand.bodies]
    starts = [b.start for b in cand.bodies] + [m.end_byte]
    own_ends = [m.start_byte] + [b.at + len(b.block) for b in cand.bodies]
    own_starts = [b.at for b in cand.bodies] + [len(patched) - (len(original) - m.end_byte)]
    gaps = list(zip(ends, starts, own_ends, own_starts))     # the declaration around the bodies, both sides

    def own_line(offset: int) -> int | None:
        if offset < m.start_byte:
            return line_of(original, offset)
        if offset >= m.end_byte:
            return line_of(original, offset) + shift
        for start, end, own_start, own_end in gaps:
            if start <= offset < end:
                into = original.count(b"\n", start, offset)
                same = original.count(b"\n", start, end) == patched.count(b"\n", own_start, own_end)
                return line_of(patched, own_start) + into if same or into == 0 else None
        return None
    return own_line
