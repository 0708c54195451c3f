"""Splice a candidate into a C# file by the target method's tree-sitter byte range.

A candidate is either a whole member declaration (optionally preceded by `using` directives and
followed or preceded by helper members) or just a body (`{ ... }`, `=> expr;`, or bare statements).
The result keeps a line map from file lines back to candidate lines, so that compiler
diagnostics can point into the candidate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.index.parse import thread_parser

MEMBER_TYPES = {
    "method_declaration", "constructor_declaration", "property_declaration", "indexer_declaration",
    "field_declaration", "event_declaration", "event_field_declaration", "operator_declaration",
    "conversion_operator_declaration", "destructor_declaration", "class_declaration",
    "struct_declaration", "enum_declaration", "interface_declaration", "record_declaration",
    "delegate_declaration",
}
KIND_NODE = {
    "method": "method_declaration", "constructor": "constructor_declaration",
    "property": "property_declaration", "indexer": "indexer_declaration",
}
BODY_NODES = ("block", "arrow_expression_clause", "accessor_list")
# Statements the wrapper class misreads as members: `while (x) { }` as a constructor named while,
# `var s = a;` or `return s;` as a field of type var/return.
STATEMENT_WORDS = {"while", "if", "for", "foreach", "lock", "using", "switch", "do", "fixed", "checked",
                   "unchecked", "return", "throw", "yield", "var", "await", "try", "else", "goto", "break",
                   "continue", "unsafe"}
ACCESSOR_RE = re.compile(r"^\{?\s*(\[[^\]]*\]\s*)*((public|private|protected|internal)\s+)*(get|set|init)\b")
USING_RE = re.compile(r"^\s*using\s+(static\s+)?[A-Za-z_][\w.]*(\s*=\s*[\w.<>, ]+)?\s*;\s*$")
WRAP_PREFIX = "class __Candidate__ {\n"


@dataclass
class LineMap:
    """file line (1-based) -> candidate line (1-based), for the lines that came from the candidate."""
    entries: dict[int, int] = field(default_factory=dict)

    def to_candidate(self, line: int) -> int | None:
        return self.entries.get(line)


@dataclass
class Patch:
    new_text: str
    line_map: LineMap
    mode: str                      # "member" | "body"
    surface_changed: bool          # the declaration header changed or non-private members were added


def apply_candidate(file_text: str, method: Method, code: str) -> tuple[str, LineMap]:
    """Return the file text with `method` replaced by `code`, and the line map."""
    patch = plan_patch(file_text, method, code)
    return patch.new_text, patch.line_map


def plan_patch(file_text: str, method: Method, code: str) -> Patch:
    """Like apply_candidate, plus what changed (used to decide what must be rebuilt)."""
    code = code.replace("\r\n", "\n")
    if not code.strip():
        raise InputError(f"the candidate for {method.id} is empty")
    data = file_text.encode("utf-8")
    tree = thread_parser("csharp").parse(data)
    target = _find_member(tree.root_node, method)
    cand_lines = code.split("\n")
    usings, first = _leading_usings(cand_lines)
    rest = "\n".join(cand_lines[first:])
    rest_offset = first                      # candidate line index of rest's first line (0-based)
    builder = _Builder()
    edits: list[tuple[int, int, list[tuple[str, int | None]]]] = []

    existing_usings = {_norm(n.text.decode()) for n in _using_nodes(tree.root_node)}
    new_usings = [(i, text.strip()) for i, text in usings if _norm(text) not in existing_usings]
    if new_usings:
        anchor = _using_nodes(tree.root_node, top_only=True)
        pos = anchor[-1].end_byte if anchor else 0
        pieces: list[tuple[str, int | None]] = []
        for i, text in new_usings:
            if anchor:
                pieces += [("\n", None), (text, i)]
            else:
                pieces += [(text, i), ("\n", None)]
        edits.append((pos, pos, pieces))

    stripped = rest.lstrip()
    lead = len(rest) - len(stripped)
    members, clean = _candidate_members(rest)
    chosen = _pick_target(members, method)
    # bare statements parse as fields; a member candidate declares something other than fields
    member_like = chosen is not None or (clean and any(m["type"] != "field_declaration" for m in members))
    mode = "body" if stripped.startswith(("{", "=>")) or not member_like else "member"
    surface_changed = False
    if mode == "body":
        if method.body_start_byte is None or method.body_end_byte is None:
            raise InputError(f"{method.id} has no body to replace; give the whole declaration")
        start, end = method.body_start_byte, method.body_end_byte
        original = data[start:end].decode("utf-8")
        if original.lstrip().startswith("=>") and data[end:].lstrip()[:1] == b";":
            end = end + data[end:].index(b";") + 1
        line0 = rest.count("\n", 0, lead)
        body = stripped.rstrip()
        pieces = []
        if method.kind in ("property", "indexer") and not body.startswith("=>") and not ACCESSOR_RE.match(body):
            # a getter's statements (or block) for a property: `{ get { ... } }`, the setter kept
            inner = body[1:-1] if body.startswith("{") and body.endswith("}") else body
            keep = _other_accessors(original)
            pieces += [("{ get {\n", None), (inner, rest_offset + line0), ("\n}" + keep + " }", None)]
            edits.append((start, end, pieces))
            body = None
        if body is None:
            pass
        elif body.startswith("{") or body.startswith("=>"):
            pieces.append((body, rest_offset + line0))
            if body.startswith("=>") and not body.endswith(";"):
                pieces.append((";", None))
        else:
            pieces += [("{\n", None), (body, rest_offset + line0), ("\n}", None)]
        if body is not None:
            edits.append((start, end, pieces))
    else:
        if chosen is None:
            # No member matches: replace with the whole rest and let the compiler speak.
            edits.append((method.start_byte, method.end_byte,
                          [(rest.strip(), rest_offset + rest.count("\n", 0, lead))]))
            surface_changed = True
        else:
            seg_start, seg_end = chosen["span"]
            pieces = [(rest[seg_start:seg_end], rest_offset + rest.count("\n", 0, seg_start))]
            kept = _setter_kept(method, data, rest[seg_start:seg_end])
            if kept:      # a getter-only property or indexer answer keeps the setter the member has
                close = rest.rindex("}", seg_start, seg_end)
                pieces = [(rest[seg_start:close].rstrip(), rest_offset + rest.count("\n", 0, seg_start)),
                          ("\n" + kept.strip() + "\n", None), (rest[close:seg_end], None)]
            sibling_texts = {_norm(n.text.decode()) for n in _siblings(target)}
            for helper in members:
                if helper is chosen or _norm(helper["text"]) in sibling_texts:
                    continue
                h_start, h_end = helper["span"]
                line_start = rest.rfind("\n", 0, h_start) + 1
                pieces += [("\n", None), (rest[line_start:h_end], rest_offset + rest.count("\n", 0, line_start))]
                surface_changed |= not helper["private"]
            surface_changed |= _norm(chosen["header"]) != _norm(_header(target))
            edits.append((method.start_byte, method.end_byte, pieces))

    edits.sort(key=lambda e: e[0])
    cursor = 0
    for start, end, pieces in edits:
        builder.add(data[cursor:start].decode("utf-8"))
        for text, pos in pieces:
            builder.add(text, pos)
        cursor = end
    builder.add(data[cursor:].decode("utf-8"))
    return Patch(builder.text(), builder.line_map, mode, surface_changed)


class _Builder:
    """Concatenates text pieces, recording which output lines came from the candidate."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.line = 1
        self.line_map = LineMap()

    def add(self, text: str, cand_line: int | None = None) -> None:
        """Append text; `cand_line` is the 0-based candidate line its first line came from."""
        if not text:
            return
        if cand_line is not None:
            for i in range(text.count("\n") + 1):
                self.line_map.entries[self.line + i] = cand_line + i + 1
        self.parts.append(text)
        self.line += text.count("\n")

    def text(self) -> str:
        return "".join(self.parts)


def _leading_usings(lines: list[str]) -> tuple[list[tuple[int, str]], int]:
    """Using directives at the top of the candidate (blank and // lines may sit between)."""
    found: list[tuple[int, str]] = []
    first = 0
    for i, line in enumerate(lines):
        s = line.strip()
        if USING_RE.match(line):
            found.append((i, line))
            first = i + 1
        elif s and not s.startswith("//"):
            break
    return found, first


def _candidate_members(rest: str) -> tuple[list[dict], bool]:
    """Member declarations of the candidate (parsed inside a wrapper class), with spans in `rest`;
    and whether the wrapper parsed without errors between members."""
    wrapped = (WRAP_PREFIX + rest + "\n}\n").encode("utf-8")
    tree = thread_parser("csharp").parse(wrapped)
    cls = next((c for c in tree.root_node.named_children if c.type == "class_declaration"), None)
    body = cls.child_by_field_name("body") if cls is not None else None
    if body is None:
        return [], False
    base = len(WRAP_PREFIX.encode("utf-8"))
    rest_bytes = rest.encode("utf-8")
    out: list[dict] = []
    prev_end = 0
    for node in body.named_children:
        if node.type == "comment":
            continue
        if node.type not in MEMBER_TYPES or node.end_byte - base > len(rest_bytes) or _misread_statement(node):
            continue
        start_b = max(prev_end, _leading_comment_start(node) - base)
        end_b = node.end_byte - base
        out.append({
            "type": node.type,
            "name": _member_name(node),
            "params": _param_types(node),
            "header": _header(node),
            "private": _is_private(node),
            "text": node.text.decode("utf-8"),
            "span": (len(rest_bytes[:start_b].decode("utf-8", "replace")),
                     len(rest_bytes[:end_b].decode("utf-8", "replace"))),
        })
        prev_end = end_b
    return out, not tree.root_node.has_error


def _misread_statement(node: Node) -> bool:
    """A statement the wrapper class parsed as a member (see STATEMENT_WORDS)."""
    if node.type == "constructor_declaration":
        return _member_name(node) in STATEMENT_WORDS
    if node.type == "field_declaration":
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        kind = decl.child_by_field_name("type") if decl is not None else None
        return kind is not None and kind.text.decode("utf-8") in STATEMENT_WORDS
    return False


def _setter_kept(method: Method, data: bytes, answer: str) -> str:
    """The original set/init accessors of a property or indexer whose answer declares a getter only."""
    if method.kind not in ("property", "indexer") or method.body_start_byte is None or method.body_end_byte is None \
            or not answer.rstrip().endswith("}") or "=>" in answer.split("{", 1)[0]:
        return ""
    accessors = answer[answer.index("{"):] if "{" in answer else ""
    if not accessors or _other_accessors(accessors):
        return ""
    return _other_accessors(data[method.body_start_byte:method.body_end_byte].decode("utf-8"))


def _other_accessors(accessors: str) -> str:
    """The set/init accessors of an original accessor list, as text (kept beside a new getter)."""
    tree = thread_parser("csharp").parse(f"class C {{ int P {accessors} }}".encode("utf-8"))
    found = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "accessor_declaration" and not node.text.decode("utf-8").lstrip().startswith(
                ("get", "[")) and re.search(r"\b(set|init)\b", node.text.decode("utf-8")):
            found.append(" " + node.text.decode("utf-8"))
        stack.extend(node.children)
    return "".join(found)


def _leading_comment_start(node: Node) -> int:
    start = node.start_byte
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "comment":
        start = prev.start_byte
        prev = prev.prev_named_sibling
    return start


def _pick_target(members: list[dict], method: Method) -> dict | None:
    node_type = KIND_NODE.get(method.kind)
    same_kind = [m for m in members if m["type"] == node_type]
    if method.kind == "constructor":
        named = same_kind
    elif method.kind == "indexer":
        named = same_kind
    else:
        named = [m for m in same_kind if m["name"] == method.name]
    if len(named) > 1:
        want = [_norm(t) for t in method.param_types]
        exact = [m for m in named if m["params"] == want]
        named = exact or named[:1]
    return named[0] if named else None


def _find_member(root: Node, method: Method) -> Node:
    node = root.descendant_for_byte_range(method.start_byte, method.end_byte)
    while node is not None and not (node.type in MEMBER_TYPES and node.start_byte <= method.start_byte
                                    and node.end_byte >= method.end_byte):
        node = node.parent
    if node is None:
        raise InputError(f"{method.id}: no declaration at bytes {method.start_byte}-{method.end_byte} "
                         f"of {method.path} (is the index stale?)")
    return node


def _siblings(node: Node) -> list[Node]:
    parent = node.parent
    return [c for c in parent.named_children if c.type in MEMBER_TYPES and c != node] if parent else []


def _using_nodes(root: Node, top_only: bool = False) -> list[Node]:
    found = [c for c in root.named_children if c.type == "using_directive"]
    if not top_only:
        stack = [c for c in root.named_children if c.type in ("namespace_declaration",
                                                              "file_scoped_namespace_declaration")]
        while stack:
            ns = stack.pop()
            for c in ns.named_children:
                if c.type == "using_directive":
                    found.append(c)
                elif c.type == "declaration_list":
                    stack.extend(c.named_children)
                elif c.type in ("namespace_declaration",):
                    stack.append(c)
    return found


def _member_name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8") if name is not None else ""


def _param_types(node: Node) -> list[str]:
    plist = node.child_by_field_name("parameters")
    if plist is None:
        plist = next((c for c in node.named_children
                      if c.type in ("parameter_list", "bracketed_parameter_list")), None)
    if plist is None:
        return []
    types = []
    for p in plist.named_children:
        if p.type != "parameter":
            continue
        t = p.child_by_field_name("type")
        types.append(_norm(t.text.decode("utf-8")) if t is not None else "")
    return types


def _header(node: Node) -> str:
    """Declaration text from the first modifier/type to the body, attributes and comments left out."""
    start = next((c.start_byte for c in node.children if c.type not in ("attribute_list", "comment")),
                 node.start_byte)
    body = next((c for c in reversed(node.children) if c.type in BODY_NODES), None)
    end = body.start_byte if body is not None else node.end_byte
    return node.text[start - node.start_byte:end - node.start_byte].decode("utf-8")


def _is_private(node: Node) -> bool:
    mods = {c.text.decode() for c in node.children if c.type == "modifier"}
    return "private" in mods or not mods & {"public", "protected", "internal"}


def _norm(text: str) -> str:
    return " ".join(text.split())
