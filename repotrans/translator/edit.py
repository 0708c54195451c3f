"""The builtin policy's edit of a ported member after its Java original changed (`repotrans sync`).

    edit_member(old_java, new_java, current_text, resolver) -> Edit

The Java diff is taken statement by statement (the top-level statements of the old and the new body).
Where the port's body has as many top-level statements as the old Java body, they are aligned one to
one: a statement Java kept keeps the port's text as it is (its local adaptations survive), an inserted
or replaced one is translated from the new Java (with one translator over the whole new method, so its
locals and parameters are known) and a deleted one is taken out. A parameter or return type that
changed is changed in the port's declaration. Where the bodies do not align, the new Java is translated
whole under the port's (edited) declaration: `how` says which happened. Which port statement stands for
which old Java statement (and what a compound statement nests) is edit_align.py's.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser

from repotrans.index.model import Method
from repotrans.translator.edit_align import (JAVA_COMPOUNDS, head, norm, positions, statement_lists, statement_span,
                                        statements)
from repotrans.translator.edit_names import PortNames
from repotrans.translator.java2cs import MethodTranslator, parse_java_method, qualify, translate_method
from repotrans.translator.resolver import NameResolver

CSHARP = Language(tree_sitter_c_sharp.language())
_WRAP = "class __Edit__ {\n"


@dataclass
class Edit:
    code: str                         # the member's new C# text (declaration and body)
    how: str                          # "statements" (the Java diff applied), "retranslated" or "model"
    notes: list[str] = field(default_factory=list)
    tokens: int = 0                   # model tokens spent (0 for the builtin policy)


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


def edit_member(old_java: Method, new_java: Method, current_text: str, resolver: NameResolver,
                names: PortNames | None = None) -> Edit:
    """The port's member `current_text` (declaration and body, as in its file) edited to follow the change
    from `old_java` to `new_java`. `names` (edit_names) rewrites what is translated anew as the port wrote
    it for the old Java."""
    notes: list[str] = []
    names = names or PortNames()
    header, body_text, tail = _split(current_text)
    header = _edit_header(header, old_java, new_java, resolver, notes)
    aligned = _apply_statements(old_java, new_java, header, body_text, tail, resolver, notes, names)
    if aligned is not None:
        return Edit(header + aligned + tail, "statements", notes)
    node, _ = _cs_member(current_text)
    target = header.strip() if node is not None and node.type != "property_declaration" else None
    code = translate_method(new_java, resolver, target or _signature_line(current_text))
    head, brace, rest = code.partition("{")
    code = head + brace + names.apply(rest) if brace else code
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
                      notes: list[str], names: PortNames) -> str | None:
    """The port's body with the Java diff applied statement by statement, or None when it cannot align."""
    if not header or not body:
        return None
    old_node, old_src = parse_java_method(old)
    new_node, new_src = parse_java_method(new)
    olds = statements(old_node.child_by_field_name("body"))
    news = statements(new_node.child_by_field_name("body"))
    cs_node, cs_src = _cs_member(header + body + tail)
    cs = statements(_block(cs_node))
    translated = _recording_translation(resolver, new_src, new_node, header)
    raw = cs_src
    base = len((_WRAP + header).encode("utf-8"))
    pieces = _align(olds, news, cs, old_src, new_src, raw, translated, resolver, notes, "", names)
    if pieces is None:
        return None
    for start, end, rep in sorted(pieces, reverse=True):
        raw = raw[:start] + rep.encode("utf-8") + raw[end:]
    return raw[base:len(raw) - len(b"\n}\n") - len(tail.encode("utf-8"))].decode("utf-8")


def _recording_translation(resolver: NameResolver, new_src: bytes, new_node: Node,
                           header: str) -> dict[tuple[int, int], list[str]]:
    """Every statement of the new Java body translated in its own context (one translator over the whole
    method, so the locals of enclosing blocks are known), by its byte span."""
    tr = MethodTranslator(resolver, new_src)
    tr.header(new_node, header.strip())
    tr.scopes.append({})
    seen: dict[tuple[int, int], list[str]] = {}
    plain = tr.stmt

    def stmt(node: Node) -> list[str]:
        out = plain(node)
        seen.setdefault((node.start_byte, node.end_byte), out)
        return out

    tr.stmt = stmt                        # the handlers call self.stmt: nested statements are recorded too
    for s in statements(new_node.child_by_field_name("body")):
        stmt(s)
    return seen


def _text(node: Node, src: bytes) -> str:
    return src[node.start_byte:node.end_byte].decode("utf-8")


def _align(olds: list[Node], news: list[Node], cs: list[Node], old_src: bytes, new_src: bytes, raw: bytes,
           translated: dict, resolver: NameResolver, notes: list[str], where: str, names: PortNames) -> list | None:
    """(start, end, replacement) pieces in `raw` that apply the Java diff olds -> news to the C# statements
    `cs` aligned one to one with `olds`; None when they do not align. A statement replaced by one of the
    same kind with the same head (condition, labels) is descended into, so the port's text around the
    changed inner statements survives."""
    pos = positions(olds, cs)
    if not olds or pos is None:
        notes.append(f"the port's {where or 'body'} has {len(cs)} top-level statement(s), the old Java "
                     f"{len(olds)}: not aligned")
        return None
    matcher = difflib.SequenceMatcher(None, [norm(_text(s, old_src)) for s in olds],
                                      [norm(_text(s, new_src)) for s in news], autojunk=False)
    pieces: list[tuple[int, int, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        notes.append(f"{op} Java statement(s) {i1 + 1}-{i2} -> {j1 + 1}-{j2}{where and ' in ' + where}")
        if op == "replace" and i2 - i1 == j2 - j1 and all(pos[i] is not None for i in range(i1, i2)):
            pairs = []                       # statement by statement: each changed one descended into
            for k in range(i2 - i1):
                o, n, c = olds[i1 + k], news[j1 + k], cs[pos[i1 + k]]
                if norm(_text(o, old_src)) == norm(_text(n, new_src)):
                    continue
                inner = _descend(o, n, c, old_src, new_src, raw, translated, resolver, notes,
                                 f"{where}{'/' if where else ''}{i1 + k + 1}", names)
                pairs.append(inner if inner is not None else
                             _replace(cs, pos[i1 + k], pos[i1 + k] + 1, [n], raw, translated, resolver, names))
            if all(p is not None for p in pairs):
                pieces.extend(p for pair in pairs for p in (pair if isinstance(pair, list) else [pair]))
                continue
        span = statement_span(pos, i1, i2, len(cs))
        piece = None if span is None else _replace(cs, span[0], span[1], [news[j] for j in range(j1, j2)], raw,
                                                   translated, resolver, names)
        if piece is None:
            return None
        pieces.append(piece)
    return pieces


def _replace(cs: list[Node], i1: int, i2: int, news: list[Node], raw: bytes, translated: dict,
             resolver: NameResolver, names: PortNames) -> tuple[int, int, str] | None:
    """The C# statements cs[i1:i2] replaced by (or, i1 == i2, the insertion of) the translated `news`."""
    lines = []
    for n in news:
        out = translated.get((n.start_byte, n.end_byte))
        if out is None:                  # a statement the translator did not reach on its own
            return None
        lines.extend(out)
    if i1 < i2:
        if not _own_lines(raw, cs[i1].start_byte, cs[i2 - 1].end_byte):
            return None
        start, end = _line_start(raw, cs[i1].start_byte), _line_end(raw, cs[i2 - 1].end_byte)
        pad = _pad(raw, cs[i1].start_byte)
    else:
        at = cs[i1].start_byte if i1 < len(cs) else cs[-1].end_byte
        if not (_own_lines(raw, at, cs[i1].end_byte) if i1 < len(cs) else _own_lines(raw, cs[-1].start_byte, at)):
            return None
        start = end = _line_start(raw, at) if i1 < len(cs) else _line_end(raw, at)
        pad = _pad(raw, cs[min(i1, len(cs) - 1)].start_byte)
    lines = names.apply(qualify("\n".join(lines), resolver.usings())).split("\n") if lines else []
    new_text = "".join(f"{pad}{line}\n" if line else "\n" for line in lines)
    if i1 == len(cs):
        new_text = "\n" + new_text.rstrip("\n")
    return start, end, new_text


def _own_lines(raw: bytes, start: int, end: int) -> bool:
    """Whether [start, end) in `raw` begins and ends its lines (nothing else of the member's text on them)."""
    before = raw[_line_start(raw, start):start]
    after = raw[end:_line_end(raw, end)]
    return not before.strip() and (not after.strip() or after.strip().startswith(b"//"))


def _descend(old: Node, new: Node, c: Node, old_src: bytes, new_src: bytes, raw: bytes, translated: dict,
             resolver: NameResolver, notes: list[str], where: str, names: PortNames) -> list | None:
    """The pieces applying a change inside one compound statement, or None (the caller replaces it whole)."""
    if old.type != new.type or JAVA_COMPOUNDS.get(old.type) != c.type:
        return None
    ol, nl, cl = statement_lists(old, True), statement_lists(new, True), statement_lists(c, False)
    if ol is None or nl is None or cl is None or not (len(ol) == len(nl) == len(cl)):
        return None
    if head(old, old_src, ol) != head(new, new_src, nl):
        return None
    mark = len(notes)
    pieces: list = []
    for k, (o, n, cc) in enumerate(zip(ol, nl, cl)):
        if [norm(_text(s, old_src)) for s in o] == [norm(_text(s, new_src)) for s in n]:
            continue
        inner = _align(o, n, cc, old_src, new_src, raw, translated, resolver, notes, f"{where}.{k + 1}", names) \
            if o and cc else None
        if inner is None and old.type == "switch_expression" and cc and n and n[-1].type in _JUMPS:
            inner = [p for p in [_replace(cc, 0, len(cc), n, raw, translated, resolver, names)] if p is not None] \
                or None
            if inner is not None:
                notes.append(f"replace the statements of case group {k + 1} in {where}")
        if inner is None:
            del notes[mark:]
            return None
        pieces.extend(inner)
    return pieces


_JUMPS = {"break_statement", "continue_statement", "return_statement", "throw_statement"}


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
