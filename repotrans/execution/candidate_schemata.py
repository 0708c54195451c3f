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
from functools import cache

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser

from repotrans.execution.apply import Patch
from repotrans.index.model import Method

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


@dataclass
class Switchable:
    """One candidate that may share a build: its member, the block replacing the body, and its own
    patched file (the per-candidate path's text) with where the block sits in it."""
    method: Method
    block: bytes                   # the candidate's body, one `{ ... }`
    patched: bytes                 # the per-candidate patched file
    block_at: int                  # byte offset of `block` in `patched`


@dataclass
class Switched:
    """One file with several candidates behind switches."""
    text: bytes
    lines: dict[int, dict[int, int]] = field(default_factory=dict)   # switch -> combined line -> own file line
    original_lines: dict[int, int] = field(default_factory=dict)     # combined line -> the unpatched file's line


@cache
def _parser() -> Parser:
    return Parser(Language(tree_sitter_c_sharp.language()))


def why_alone(original: bytes, method: Method, patch: Patch) -> str | Switchable:
    """The Switchable form of a planned candidate, or why it must be judged alone."""
    if method.kind not in ("method", "constructor"):
        return f"a {method.kind}: only method and constructor bodies are switched"
    if method.body_start_byte is None or method.body_end_byte is None:
        return "its member has no body"
    if method.kind == "method" and not re.fullmatch(r"[A-Za-z_]\w*(<.*>)?", method.name.rsplit(".", 1)[-1]):
        return "an operator or conversion: the capability check would read its whole type, other candidates too"
    current = original[method.body_start_byte:method.body_end_byte]
    if not current.lstrip().startswith(b"{"):
        return "its member has an expression body"
    if _generating(_parse_block(current), current) or b"async" in original[method.start_byte:method.body_start_byte]:
        return "its current body is an iterator or async"
    patched = patch.new_text.encode("utf-8")
    head, tail = method.start_byte, len(original) - method.end_byte
    if patched[:head] != original[:head] or patched[len(patched) - tail:] != original[method.end_byte:]:
        return "it changes its file outside the member (using directives)"
    replaced = patched[head:len(patched) - tail]
    if patch.mode == "body":
        lead = method.body_start_byte - method.start_byte
        if replaced[:lead] != original[head:method.body_start_byte]:
            return "it changes its file outside the member body"
        block, block_at = replaced[lead:], method.body_start_byte
    else:
        found = _declaration_block(replaced, method, original[head:method.body_start_byte])
        if isinstance(found, str):
            return found
        block, offset = found
        block_at = head + offset
    if not block.startswith(b"{") or not block.endswith(b"}"):
        return "its body is not one block (an expression body)"
    tree = _parse_block(block)
    if tree is None:
        return "its body is not one well-formed block"
    why = _generating(tree, block)
    if why:
        return f"its body has {why}: not the same code in a shared build with its switch off"
    return Switchable(method, block, patched, block_at)


def _parse_block(block: bytes) -> Node | None:
    """The block node of `block` parsed as a method body, when it is exactly one error-free block."""
    prefix = (_WRAP + "void __M__() ").encode()
    tree = _parser().parse(prefix + block + b"\n}")
    decls = _members(tree)
    if decls is None or len(decls) != 1 or decls[0].type != "method_declaration":
        return None
    body = decls[0].child_by_field_name("body")
    if body is None or body.type != "block" or body.start_byte != len(prefix) \
            or body.end_byte != len(prefix) + len(block):
        return None
    return body


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


def _declaration_block(decl: bytes, method: Method, current_head: bytes) -> tuple[bytes, int] | str:
    """A whole-declaration candidate with the member's own declaration: (its block, offset in `decl`)."""
    members = _members(_parser().parse(_WRAP.encode() + decl + b"\n}"))
    if members is None:
        return "its declaration does not parse"
    if len(members) != 1 or members[0].type not in ("method_declaration", "constructor_declaration"):
        return "it adds members (helpers) or is not one method"
    body = members[0].child_by_field_name("body")
    if body is None or body.type != "block":
        return "its declaration has no block body"
    current = _members(_parser().parse(_WRAP.encode() + current_head + b"{}\n}"))
    if not current or _tokens(members[0]) != _tokens(current[0]):
        return "it changes the member's declaration (signature, modifiers, attributes or initializer)"
    start, end = body.start_byte - len(_WRAP), body.end_byte - len(_WRAP)
    if decl[end:].strip():
        return "text follows its body"
    return decl[start:end], start


def _tokens(member: Node) -> list[bytes]:
    """The leaf tokens of a declaration before its body, comments left out."""
    body = member.child_by_field_name("body")
    out: list[bytes] = []
    stack = [c for c in reversed(member.children) if c != body]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            continue
        if n.child_count == 0:
            out.append(n.text)
        stack.extend(reversed(n.children))
    return out


def combine(original: bytes, items: list[tuple[Switchable, int]]) -> Switched:
    """`original` with each item's member body behind its switch; per switch, the line map from the
    combined text to the item's own patched file (lines of other candidates and of the scaffolding
    have no counterpart there).

    The candidate comes last, `{ if (!On(n)) <current> else <candidate> }`: mono names a frame by the
    statement after the native return address, so a throw ending a branch that other code follows is
    reported on that code's first line. Last in the method, the candidate's throws are named as in
    its own build; the current body's last throw is named by the candidate's first line, which the
    maps of the other switches (and `original_lines`) therefore send to that throw's line."""
    items = sorted(items, key=lambda item: item[0].method.body_start_byte)
    pieces: list[tuple[bytes, str, int, int]] = []      # (text, kind, switch, original offset)
    cursor = 0
    for cand, switch in items:
        m = cand.method
        if m.body_start_byte < cursor:
            raise ValueError(f"{m.id} overlaps another switched member")
        current = original[m.body_start_byte:m.body_end_byte]
        pieces += [(original[cursor:m.body_start_byte], "orig", -1, cursor),
                   (f"{{ if (!global::{SWITCH_CLASS}.On({switch})) ".encode(), "scaffold", -1, -1),
                   (current, "current", switch, m.body_start_byte), (b" else ", "scaffold", -1, -1),
                   (cand.block, "cand", switch, m.body_start_byte + _last_statement(current)),
                   (b" }", "scaffold", -1, -1)]
        cursor = m.body_end_byte
    pieces.append((original[cursor:], "orig", -1, cursor))
    out = Switched(b"".join(p[0] for p in pieces))
    for cand, switch in items:
        out.lines[switch] = _line_map(original, pieces, cand, switch)
    out.original_lines = _line_map(original, pieces, None, -1)
    return out


def _last_statement(block: bytes) -> int:
    """Offset in `block` of its last statement (its opening brace when it has none)."""
    node = _parse_block(block)
    statements = [c for c in node.named_children if c.type != "comment"] if node is not None else []
    return statements[-1].start_byte - node.start_byte if statements else 0


def _starts(text: bytes) -> list[int]:
    return [0] + [i + 1 for i, c in enumerate(text) if c == 10 and i + 1 < len(text)]


def _line_map(original: bytes, pieces: list[tuple[bytes, str, int, int]], cand: Switchable | None,
              switch: int) -> dict[int, int]:
    """Combined line -> line of `cand`'s own patched file (None: of the unpatched file), for the lines
    that exist there; every line of another switch's candidate stands for its current body's last
    statement (see `combine`)."""
    if cand is None:
        lines, line = {}, 1
        for text, kind, _, offset in pieces:
            for at in _starts(text) if kind != "scaffold" else ():
                there = offset + at if kind != "cand" else offset
                lines.setdefault(line + text.count(b"\n", 0, at), original.count(b"\n", 0, there) + 1)
            line += text.count(b"\n")
        return lines
    m = cand.method
    shift = cand.patched.count(b"\n") - original.count(b"\n")      # lines the candidate adds
    block_line = cand.patched.count(b"\n", 0, cand.block_at) + 1
    head_same = original.count(b"\n", m.start_byte, m.body_start_byte) == \
        cand.patched.count(b"\n", m.start_byte, cand.block_at)
    first = original.count(b"\n", 0, m.start_byte) + 1

    def own_line(offset: int) -> int | None:
        here = original.count(b"\n", 0, offset) + 1
        if offset < m.start_byte:
            return here
        if offset >= m.end_byte:
            return here + shift
        if offset < m.body_start_byte and (head_same or here == first):     # the declaration's head
            return here
        return None

    lines: dict[int, int] = {}
    line = 1
    for text, kind, key, offset in pieces:
        for n, at in enumerate(_starts(text)):
            if kind == "orig" or (kind == "current" and key != switch):
                target = own_line(offset + at)
            elif kind == "cand":
                target = block_line + n if key == switch else own_line(offset)
            else:
                target = None
            if target is not None:
                lines.setdefault(line + text.count(b"\n", 0, at), target)
        line += text.count(b"\n")
    return lines
