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
- a view cached in fields the port lacks, rewound and then read or written, is the buffer read or written
  from where it is (the cache only saves making the view again);
A view used any other way (rewound as a local, passed on) is left as Java wrote it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from repotrans.index.model import Method
from repotrans.translator.java2cs import parse_java_method
from repotrans.translator.resolver import name_key

# view method -> (the view's Java type, the byte buffer's element reader, writer)
VIEWS = {"asLongBuffer": ("LongBuffer", "getLong", "putLong"), "asIntBuffer": ("IntBuffer", "getInt", "putInt"),
         "asShortBuffer": ("ShortBuffer", "getShort", "putShort"), "asCharBuffer": ("CharBuffer", "getChar", "putChar"),
         "asDoubleBuffer": ("DoubleBuffer", "getDouble", "putDouble"),
         "asFloatBuffer": ("FloatBuffer", "getFloat", "putFloat")}

Edit = tuple[int, int, str]
_WORD = re.compile(r"[A-Za-z_]\w*")


def element_accessors(java: Method | str, port_members: set[str] | frozenset[str] = frozenset(),
                      class_members: set[str] | frozenset[str] | None = None) -> Method | str:
    """The Java method with its typed views read and written through the byte buffer (module doc); a view
    the port's byte buffer has (`port_members`: its member names, any case) is kept. `class_members` (the
    C# class's member names, when known) tells the Java fields the port lacks: a view cached in such fields
    is made where it is used."""
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
        edits += _view_edits(call, node, VIEWS[name]) or \
            _cached_view_edits(call, node, VIEWS[name], class_members)
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


def _cached_view_edits(call: Node, method: Node, view: tuple[str, str, str],
                       class_members: set[str] | frozenset[str] | None) -> list[Edit]:
    """A view cached in Java fields the port lacks (HdrHistogram's `if (cachedDstLongBuffer == null || buffer !=
    cachedDstByteBuffer || buffer.position() != cachedDstByteBufferPosition) { cachedDstByteBuffer = buffer; ...;
    cachedDstLongBuffer = buffer.asLongBuffer(); } cachedDstLongBuffer.rewind(); cachedDstLongBuffer.put(counts, 0,
    length);`): the cache, kept while the buffer and its position are the same, stands for a view made at the
    buffer's position and rewound, which is the buffer read or written from where it is. The guard whose every
    statement fills such fields goes, `rewind()` of the view goes, and its reads and writes are the buffer's."""
    assignment = call.parent
    if class_members is None or assignment is None or assignment.type != "assignment_expression" or \
            assignment.child_by_field_name("right") != call:
        return []
    buffer = call.child_by_field_name("object")
    locals_ = _declared(method)
    lacking = {name_key(m) for m in class_members}

    def port_lacks(target: Node | None) -> str | None:
        name = _field_name(target)
        return name if name is not None and name not in locals_ and name_key(name) not in lacking else None

    cache = port_lacks(assignment.child_by_field_name("left"))
    statement = assignment.parent
    block = statement.parent if statement is not None else None
    guard = block.parent if block is not None else None
    if cache is None or buffer is None or buffer.type != "identifier" or guard is None or \
            guard.type != "if_statement" or guard.child_by_field_name("consequence") != block or \
            guard.child_by_field_name("alternative") is not None or not _pure(guard.child_by_field_name("condition")):
        return []
    filled = []
    for child in block.named_children:
        expression = child.named_children[0] if child.type == "expression_statement" and child.named_children else None
        name = port_lacks(expression.child_by_field_name("left")) if expression is not None and \
            expression.type == "assignment_expression" else None
        if name is None or not _pure(expression.child_by_field_name("right")):
            return []
        filled.append(name)
    edits: list[Edit] = [(guard.start_byte, guard.end_byte, "")]
    for use in _identifiers(method, *filled):
        if guard.start_byte <= use.start_byte < guard.end_byte:
            continue
        reference = use.parent if use.parent is not None and use.parent.type == "field_access" else use
        invocation = reference.parent
        if _text(use) != cache or invocation is None or invocation.type != "method_invocation" or \
                invocation.child_by_field_name("object") != reference:
            return []
        if _text(invocation.child_by_field_name("name")) == "rewind" and not _args(invocation) and \
                invocation.parent is not None and invocation.parent.type == "expression_statement":
            edits.append((invocation.parent.start_byte, invocation.parent.end_byte, ""))
            continue
        edit = _use(invocation, _text(buffer), view)
        if edit is None:
            return []
        edits.append(edit)
    return edits


def _field_name(target: Node | None) -> str | None:
    """The field an assignment target names: `f` or `this.f`."""
    if target is not None and target.type == "identifier":
        return _text(target)
    if target is not None and target.type == "field_access" and \
            _text(target.child_by_field_name("object")) == "this":
        return _text(target.child_by_field_name("field"))
    return None


def _declared(method: Node) -> set[str]:
    """The names the method declares: parameters and locals."""
    names, stack = set(), [method]
    while stack:
        n = stack.pop()
        if n.type in ("formal_parameter", "variable_declarator", "catch_formal_parameter", "enhanced_for_statement"):
            name = n.child_by_field_name("name")
            if name is not None:
                names.add(_text(name))
        stack.extend(n.children)
    return names


def _pure(node: Node | None) -> bool:
    """Whether evaluating the expression changes nothing: no assignment, increment, `new`, or call with arguments
    (a getter such as `position()` reads)."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("assignment_expression", "update_expression", "object_creation_expression") or \
                (n.type == "method_invocation" and _args(n)):
            return False
        stack.extend(n.children)
    return True


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


def _identifiers(node: Node, *names: str) -> list[Node]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.text.decode("utf-8") in names:
            found.append(n)
        stack.extend(n.children)
    return found


def _args(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return [] if arguments is None else [c for c in arguments.named_children if "comment" not in c.type]


def _text(node: Node | None) -> str:
    return "" if node is None else node.text.decode("utf-8")
