"""The builtin policy's edit of a ported member after its Java original changed (`repotrans sync`).

    edit_member(old_java, new_java, current_text, resolver) -> Edit

The Java diff is taken statement by statement (the top-level statements of the old and the new body).
Where the port's body has as many top-level statements as the old Java body, they are aligned one to
one: a statement Java kept keeps the port's text as it is (its local adaptations survive), an inserted
or replaced one is translated from the new Java (with one translator over the whole new method, so its
locals and parameters are known) and a deleted one is taken out. A parameter or return type that
changed is changed in the port's declaration. Where the bodies do not align, the new Java is translated
whole under the port's (edited) declaration: `how` says which happened.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser

from repotrans.index.model import Method
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.task import TranslationTask
from repotrans.policy.java2cs import MethodTranslator, parse_java_method, qualify, translate_method
from repotrans.policy.resolver import NameResolver, renamed_members
from repotrans.policy.steps import StepRequest, next_context_call, resolver_for
from repotrans.tools import ToolContext, run_tool

CSHARP = Language(tree_sitter_c_sharp.language())
_WRAP = "class __Edit__ {\n"
_COMMENTS = ("comment", "line_comment", "block_comment")


@dataclass
class Edit:
    code: str                         # the member's new C# text (declaration and body)
    how: str                          # "statements" (the Java diff applied), "retranslated" or "model"
    notes: list[str] = field(default_factory=list)
    tokens: int = 0                   # model tokens spent (0 for the builtin policy)


def _statements(block: Node | None) -> list[Node]:
    return [c for c in (block.named_children if block is not None else []) if c.type not in _COMMENTS]


def _norm(text: str) -> str:
    return " ".join(text.split())


def _cs_member(text: str) -> tuple[Node | None, bytes]:
    source = (_WRAP + text + "\n}\n").encode("utf-8")
    tree = Parser(CSHARP).parse(source)
    decl = tree.root_node.named_children[0] if tree.root_node.named_children else None
    body = decl.child_by_field_name("body") if decl is not None else None
    members = [c for c in (body.named_children if body is not None else [])
               if c.type in ("method_declaration", "constructor_declaration", "property_declaration",
                             "indexer_declaration")]
    return (members[0] if len(members) == 1 else None), source


def _block(node: Node | None) -> Node | None:
    """A method's or constructor's body block, or the block of a property's (indexer's) only get accessor."""
    if node is None:
        return None
    body = node.child_by_field_name("body")
    if body is not None:
        return body if body.type == "block" else None
    accessors = node.child_by_field_name("accessors")
    found = [a for a in (accessors.named_children if accessors is not None else []) if a.type == "accessor_declaration"]
    name = found[0].child_by_field_name("name") if len(found) == 1 else None
    if name is not None and name.text == b"get":
        block = found[0].child_by_field_name("body")
        return block if block is not None and block.type == "block" else None
    return None


def edit_member(old_java: Method, new_java: Method, current_text: str, resolver: NameResolver) -> Edit:
    """The port's member `current_text` (declaration and body, as in its file) edited to follow the change
    from `old_java` to `new_java`."""
    notes: list[str] = []
    header, body_text, tail = _split(current_text)
    header = _edit_header(header, old_java, new_java, resolver, notes)
    aligned = _apply_statements(old_java, new_java, header, body_text, tail, resolver, notes)
    if aligned is not None:
        return Edit(header + aligned + tail, "statements", notes)
    node, _ = _cs_member(current_text)
    target = header.strip() if node is not None and node.type != "property_declaration" else None
    code = translate_method(new_java, resolver, target or _signature_line(current_text))
    return Edit(_indent_like(current_text, code), "retranslated", notes)


def _signature_line(text: str) -> str:
    return text.split("{", 1)[0].strip()


def _split(text: str) -> tuple[str, str, str]:
    """(text before the body block, the block, text after it) of a C# member."""
    node, _ = _cs_member(text)
    block = _block(node)
    if block is None:
        return text, "", ""
    start, end = block.start_byte - len(_WRAP.encode()), block.end_byte - len(_WRAP.encode())
    raw = text.encode("utf-8")
    return raw[:start].decode("utf-8"), raw[start:end].decode("utf-8"), raw[end:].decode("utf-8")


def _edit_header(header: str, old: Method, new: Method, resolver: NameResolver, notes: list[str]) -> str:
    """Parameter and return types that changed in Java, changed the same way in the port's declaration."""
    if len(old.params) != len(new.params):
        notes.append(f"parameters {len(old.params)} -> {len(new.params)}: the declaration is translated anew")
        return ""
    node, source = _cs_member(header + "{ }")
    plist = node.child_by_field_name("parameters") if node is not None else None
    params = plist.named_children if plist is not None else []
    params = [p for p in params if p.type == "parameter"]
    if len(params) != len(old.params):
        return header
    edits = []
    offset = len(_WRAP.encode())
    for jo, jn, p in zip(old.params, new.params, params):
        type_node = p.child_by_field_name("type")
        if jo.type != jn.type and type_node is not None:
            cs = resolver.type_name(jn.type)
            edits.append((type_node.start_byte - offset, type_node.end_byte - offset, cs))
            notes.append(f"parameter {jo.name}: {jo.type} -> {jn.type} ({cs})")
    if old.return_type != new.return_type and node is not None and node.child_by_field_name("returns") is not None:
        ret = node.child_by_field_name("returns")
        cs = resolver.type_name(new.return_type or "void")
        edits.append((ret.start_byte - offset, ret.end_byte - offset, cs))
        notes.append(f"returns: {old.return_type} -> {new.return_type} ({cs})")
    raw = header.encode("utf-8")
    for start, end, text in sorted(edits, reverse=True):
        raw = raw[:start] + text.encode("utf-8") + raw[end:]
    return raw.decode("utf-8")


def _apply_statements(old: Method, new: Method, header: str, body: str, tail: str, resolver: NameResolver,
                      notes: list[str]) -> str | None:
    """The port's body with the Java diff applied statement by statement, or None when it cannot align."""
    if not header or not body:
        return None
    old_node, old_src = parse_java_method(old)
    new_node, new_src = parse_java_method(new)
    olds = _statements(old_node.child_by_field_name("body"))
    news = _statements(new_node.child_by_field_name("body"))
    cs_node, cs_src = _cs_member(header + body + tail)
    cs = _statements(_block(cs_node))
    if not olds or len(olds) != len(cs):
        notes.append(f"the port's body has {len(cs)} top-level statement(s), the old Java {len(olds)}: not aligned")
        return None
    tr = MethodTranslator(resolver, new_src)
    tr.header(new_node, header.strip())
    tr.scopes.append({})
    translated = [tr.stmt(s) for s in news]
    text = lambda n, src: src[n.start_byte:n.end_byte].decode("utf-8")  # noqa: E731
    matcher = difflib.SequenceMatcher(None, [_norm(text(s, old_src)) for s in olds],
                                      [_norm(text(s, new_src)) for s in news], autojunk=False)
    raw = cs_src
    base = len((_WRAP + header).encode("utf-8"))
    pieces: list[tuple[int, int, str]] = []         # (start, end, replacement) in cs_src
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        lines = [line for j in range(j1, j2) for line in translated[j]]
        if i1 < i2:
            start, end = _line_start(raw, cs[i1].start_byte), _line_end(raw, cs[i2 - 1].end_byte)
            pad = _pad(raw, cs[i1].start_byte)
        else:
            at = cs[i1].start_byte if i1 < len(cs) else cs[-1].end_byte
            start = end = _line_start(raw, at) if i1 < len(cs) else _line_end(raw, at)
            pad = _pad(raw, cs[min(i1, len(cs) - 1)].start_byte)
        lines = qualify("\n".join(lines), resolver.usings()).split("\n") if lines else []
        new_text = "".join(f"{pad}{line}\n" if line else "\n" for line in lines)
        if i1 == len(cs):
            new_text = "\n" + new_text.rstrip("\n")
        pieces.append((start, end, new_text))
        notes.append(f"{op} Java statement(s) {i1 + 1}-{i2} -> {j1 + 1}-{j2}")
    for start, end, rep in sorted(pieces, reverse=True):
        raw = raw[:start] + rep.encode("utf-8") + raw[end:]
    return raw[base:len(raw) - len(b"\n}\n") - len(tail.encode("utf-8"))].decode("utf-8")


def _line_start(raw: bytes, at: int) -> int:
    return raw.rfind(b"\n", 0, at) + 1


def _line_end(raw: bytes, at: int) -> int:
    nl = raw.find(b"\n", at)
    return len(raw) if nl < 0 else nl + 1


def _pad(raw: bytes, at: int) -> str:
    return raw[_line_start(raw, at):at].decode("utf-8")


def _indent_like(current: str, code: str) -> str:
    """A retranslated member indented like the member it replaces (first line as it stands in the file)."""
    lines = current.splitlines()
    pad = re.match(r"\s*", lines[1]).group() if len(lines) > 1 else ""
    pad = pad[:-4] if pad.endswith("    ") else pad
    out = code.splitlines()
    return "\n".join([out[0]] + [pad + line if line else line for line in out[1:]])


def resolver_for_pair(index, mapping: Mapping, java: Method, target: Method, max_calls: int = 16) -> NameResolver:
    """The names the builtin policy would know when translating `java` into `target`: the context tools it
    calls (as in its context step), run on `index`, and the callees the port renamed."""
    import json

    ctx = ToolContext(index, mapping, TranslationTask(target.id, java.id))
    req = StepRequest(step="context", java_method=java, target_method=target,
                      renames=renamed_members(mapping.method_matches))
    for _ in range(max_calls):
        call = json.loads(next_context_call(req))
        if call.get("tool") in (None, "enough"):
            break
        req.outputs.append((call["tool"], call["arguments"], run_tool(ctx, call["tool"], call["arguments"])))
    return resolver_for(req)
