"""Java NIO's typed views over a byte buffer, as ports write them: element by element through the byte
buffer's own typed accessors.

.NET has no `java.nio.ByteBuffer`; a port writes its own (HdrHistogram.NET's `Utilities.ByteBuffer` has
`getLong`/`putLong`, `getInt`/`putInt`) and no views, so `buffer.asLongBuffer()` and `LongBuffer` have no
counterpart and were emitted as they are (CS1061, CS0246). Where the port's byte buffer has no view of the
kind, the view's reads and writes become the buffer's own (a Java -> Java rewrite before translation):
- `b.asLongBuffer().get(dst, off, n);` -> `for (...) dst[off + i] = b.getLong();` (`put` likewise);
- `b.asLongBuffer().get()` / `.put(v)` -> `b.getLong()` / `b.putLong(v)`;
- a local view `LongBuffer v = b.asLongBuffer();` whose every use is such a read or write is `b` itself.
The one difference, as ports accept it: Java's view keeps its own position, the buffer's reads advance it.
A view used any other way (`rewind()`, kept in a field, passed on) is left as Java wrote it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from repotrans.index.model import Method
from repotrans.translator.java2cs import parse_java_method

# view method -> (the view's Java type, the byte buffer's element reader, writer)
VIEWS = {"asLongBuffer": ("LongBuffer", "getLong", "putLong"), "asIntBuffer": ("IntBuffer", "getInt", "putInt"),
         "asShortBuffer": ("ShortBuffer", "getShort", "putShort"), "asCharBuffer": ("CharBuffer", "getChar", "putChar"),
         "asDoubleBuffer": ("DoubleBuffer", "getDouble", "putDouble"),
         "asFloatBuffer": ("FloatBuffer", "getFloat", "putFloat")}

Edit = tuple[int, int, str]
_WORD = re.compile(r"[A-Za-z_]\w*")


def element_accessors(java: Method | str, port_members: set[str] | frozenset[str] = frozenset()) -> Method | str:
    """The Java method with its typed views read and written through the byte buffer (module doc); a view
    the port's byte buffer has (`port_members`: its member names, any case) is kept."""
    text = java if isinstance(java, str) else java.body
    if not text or not any(view in text for view in VIEWS):
        return java
    node, source = parse_java_method(java)
    kept = {m.lower() for m in port_members}
    edits: list[Edit] = []
    for call in _calls(node):
        name = _text(call.child_by_field_name("name"))
        if name not in VIEWS or name.lower() in kept or _args(call) or call.child_by_field_name("object") is None:
            continue
        edits += _view_edits(call, node, VIEWS[name])
    if not edits:
        return java
    body = node.child_by_field_name("body")
    rewritten = _apply(source, edits, body.start_byte, body.end_byte)
    if isinstance(java, str):
        return source[node.start_byte:body.start_byte].decode("utf-8") + rewritten
    return replace(java, body=rewritten)


def _view_edits(call: Node, method: Node, view: tuple[str, str, str]) -> list[Edit]:
    """The edits that read and write one view through its byte buffer, or none when a use does not fit."""
    buffer = _text(call.child_by_field_name("object"))
    parent = call.parent
    if parent is not None and parent.type == "method_invocation" and parent.child_by_field_name("object") == call:
        edit = _use(parent, buffer, view)
        return [edit] if edit is not None else []
    if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == call:
        declaration = parent.parent
        if declaration is None or declaration.type != "local_variable_declaration" or \
                len([c for c in declaration.named_children if c.type == "variable_declarator"]) != 1:
            return []
        local = _text(parent.child_by_field_name("name"))
        uses = [n for n in _identifiers(method, local) if n != parent.child_by_field_name("name")]
        edits = []
        for use in uses:
            invocation = use.parent
            if invocation is None or invocation.type != "method_invocation" or \
                    invocation.child_by_field_name("object") != use:
                return []
            edit = _use(invocation, local, view)
            if edit is None:
                return []
            edits.append(edit)
        declared = declaration.child_by_field_name("type")
        return [(declared.start_byte, declared.end_byte, "ByteBuffer"), (call.start_byte, call.end_byte, buffer),
                *edits]
    return []


def _use(invocation: Node, buffer: str, view: tuple[str, str, str]) -> Edit | None:
    """One read or write of a view (`invocation`, whose object is the view) through `buffer`'s accessors."""
    _, reader, writer = view
    name = _text(invocation.child_by_field_name("name"))
    args = [_text(a) for a in _args(invocation)]
    if name == "get" and not args:
        return invocation.start_byte, invocation.end_byte, f"{buffer}.{reader}()"
    if name == "put" and len(args) == 1 and not _is_array(invocation):
        return invocation.start_byte, invocation.end_byte, f"{buffer}.{writer}({args[0]})"
    statement = invocation.parent
    if name in ("get", "put") and len(args) == 3 and statement is not None and statement.type == "expression_statement":
        array, offset, count = args
        index = _fresh("i", _text(statement.parent or statement))
        offset = offset.strip()
        slot = f"{array}[{index}]" if offset == "0" else \
            f"{array}[{offset if _WORD.fullmatch(offset) or offset.isdigit() else f'({offset})'} + {index}]"
        step = f"{slot} = {buffer}.{reader}();" if name == "get" else f"{buffer}.{writer}({slot});"
        return statement.start_byte, statement.end_byte, \
            f"for (int {index} = 0; {index} < {count}; {index}++) {{ {step} }}"
    return None


def _is_array(invocation: Node) -> bool:
    """Whether a one-argument put writes an array (`put(long[])`): an array creation or initializer."""
    args = _args(invocation)
    return bool(args) and args[0].type in ("array_creation_expression", "array_initializer")


def _fresh(stem: str, text: str) -> str:
    """A local name the code does not use."""
    name, n = stem, 0
    while any(token == name for token in _tokens(text)):
        n += 1
        name = f"{stem}{n}"
    return name


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text)


def _apply(source: bytes, edits: list[Edit], start: int, end: int) -> str:
    """`source[start:end]` with the edits (by byte offsets into `source`; of overlapping ones the first) made."""
    out, pos = [], start
    for first, last, text in sorted(set(edits)):
        if first < pos:
            continue
        out.append(source[pos:first].decode("utf-8"))
        out.append(text)
        pos = last
    out.append(source[pos:end].decode("utf-8"))
    return "".join(out)


def _calls(node: Node) -> list[Node]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "method_invocation":
            found.append(n)
        stack.extend(n.children)
    return found


def _identifiers(node: Node, name: str) -> list[Node]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.text.decode("utf-8") == name:
            found.append(n)
        stack.extend(n.children)
    return found


def _args(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return [] if arguments is None else [c for c in arguments.named_children if "comment" not in c.type]


def _text(node: Node | None) -> str:
    return "" if node is None else node.text.decode("utf-8")
