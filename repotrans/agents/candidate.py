"""From a generate/repair answer to the candidate the runner tests: one member, its usings, its helpers.

Models answer with the method alone, with a usage snippet before it, with usings and a private
helper, or with the whole class (usings + namespace + class). Whatever the shape, the candidate is
normalised to `using` lines, the member whose kind, name and parameters match the target, and the
private helper members or nested types it brought that the target class lacks. Members the class
already has are left out (a whole-class answer repeats them); each choice is noted for the trajectory.

The member must be the one asked: same kind, name, parameter count and types (aliases and namespaces
aside) and static-ness. An answer declaring only other members is a `Mismatch` (re-asked, never
inserted as a body); a body without a declaration is a candidate only when it reads as statements
(prose such as `true false` is not).
"""
from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field

from tree_sitter import Node

from repotrans.agents import parse
from repotrans.execution.workspace.apply import KIND_NODE, MEMBER_TYPES, USING_RE
from repotrans.index.model import Method
from repotrans.index.parse import thread_parser

TYPE_NODES = {"class_declaration", "struct_declaration", "record_declaration", "interface_declaration"}
WRAP = "class __Answer__ {\n"


@dataclass
class Candidate:
    code: str                                          # what is tested and applied
    usings: list[str] = field(default_factory=list)    # using directives it brings
    helpers: list[str] = field(default_factory=list)   # added members/types, as `kind name`
    dropped: list[str] = field(default_factory=list)   # members of the answer left out, with why
    shape: str = "member"                              # member | body | class | snippet+member

    def to_json(self) -> dict:
        return {"usings": self.usings, "helpers": self.helpers, "dropped": self.dropped, "shape": self.shape}


@dataclass
class Mismatch:
    """An answer that declares another member than the one asked."""
    found: str                 # e.g. `static void CheckPositive(double, string)`
    asked: str                 # e.g. `static string Repeat(string, int)`

    def correction(self) -> str:
        return (f"You wrote `{self.found}`; translate `{self.asked}`: the member with exactly that name, "
                "parameters and modifiers.")


ALIASES = {"String": "string", "Int32": "int", "Int64": "long", "Int16": "short", "Boolean": "bool", "Double": "double",
           "Single": "float", "Object": "object", "Char": "char", "Byte": "byte", "Decimal": "decimal",
           "SByte": "sbyte", "UInt32": "uint", "UInt64": "ulong", "UInt16": "ushort"}


def extract(text: str, target: Method, existing: frozenset[str] = frozenset()) -> Candidate | Mismatch | None:
    """The candidate in an answer (reasoning already set aside), a Mismatch when the answer declares
    another member, or None when it holds no C# code.

    `existing` holds the names of the target class's members, fields and nested types."""
    blocks = parse.code_blocks(text)
    if not blocks:         # a fence tagged as another language, or no fence: only if it declares the target
        others = [b for t, b in parse.fences(text) if t not in ("json", "jsonc")] or [_from_declaration(text, target)]
        read = [r for r in (_read_block(b, target) for b in others) if r["member"] is not None]
        if not read:
            return None
    else:
        read = [_read_block(b, target) for b in blocks]
    usings = _unique(u for r in read for u in r["usings"])
    declaring = [r for r in read if r["member"] is not None]
    if not declaring:
        wrong = next((m for r in read for m in r["declared"] if m.type in KIND_NODE.values()), None)
        if wrong is not None:
            return Mismatch(found=declared(wrong), asked=asked(target))
        body = next((r for r in read if r["declares_nothing"] and _statements(r["rest"])), None)
        if body is None:
            return None
        code = "\n".join(usings + [body["rest"]]) if usings else body["rest"]
        return Candidate(code=code, usings=usings, shape="body")
    chosen = declaring[-1]
    helpers, dropped = [], []
    for node in chosen["others"]:
        name, kind = _name(node), node.type.replace("_declaration", "")
        label = f"{kind} {name}".strip()
        if name in existing or name == target.name and node.type == KIND_NODE.get(target.kind):
            dropped.append(f"{label}: already in the class")
        elif not _is_private(node):
            dropped.append(f"{label}: not private (only private helpers are added)")
        elif node.type in ("field_declaration", "event_field_declaration") and not _modifiers(node) & {"static", "const"}:
            dropped.append(f"{label}: an instance field is state the class does not have (only static helpers)")
        else:
            helpers.append(node)
    pieces = [_with_comments(chosen["member"])] + [_with_comments(h) for h in helpers]
    code = "\n".join(usings) + "\n\n" if usings else ""
    code += "\n\n".join(_dedent(p) for p in pieces)
    shape = "class" if chosen["in_type"] else "member"
    if len(read) > 1 and any(r is not chosen and r["declares_nothing"] for r in read):
        shape = "snippet+" + shape
    return Candidate(code=code, usings=usings, shape=shape, dropped=dropped,
                     helpers=[f"{h.type.replace('_declaration', '')} {_name(h)}" for h in helpers])


ENTITY = re.compile(r"&(?:gt|lt|amp|quot|apos|#39|#x27|#34|#60|#62);")


def unescape(text: str) -> tuple[str, dict[str, int]]:
    """The answer with HTML entities decoded (`&gt;`, `&#39;`, `&amp;#39;` ...) when that makes its code
    parse better as C# (a chat template that escapes its prompt gets them echoed), and the entities
    decoded with their counts; unchanged when the code reads as well escaped (entities in strings)."""
    found = Counter(ENTITY.findall(text))
    if not found:
        return text, {}
    decoded = text
    for _ in range(3):                 # `&amp;#39;`: escaped once more each round it was echoed
        decoded = ENTITY.sub(lambda m: html.unescape(m.group(0)), decoded)
        if not ENTITY.search(decoded):
            break
    if _errors(decoded) >= _errors(text):
        return text, {}
    return decoded, dict(found)


def _errors(text: str) -> int:
    """Syntax errors of an answer's code blocks (or of the whole answer) read as class members."""
    code = "\n".join(parse.code_blocks(text)) or text
    tree = thread_parser("csharp").parse((WRAP + code + "\n}\n").encode("utf-8"))
    count, stack = 0, [tree.root_node]
    while stack:
        node = stack.pop()
        count += node.is_error or node.is_missing
        stack.extend(node.children)
    return count


def _from_declaration(text: str, target: Method) -> str:
    """Unfenced prose and code: the text from the line that declares the target on (prose before it dropped)."""
    lines = text.split("\n")
    name = "this" if target.kind == "indexer" else target.name
    for i, line in enumerate(lines):
        if re.search(rf"\b{re.escape(name)}\s*[(\[{{]|\b{re.escape(name)}\s*$", line) and not line.lstrip().startswith("//"):
            while i > 0 and lines[i - 1].lstrip().startswith(("[", "///", "//")):
                i -= 1
            return "\n".join(lines[i:])
    return text


def _read_block(code: str, target: Method) -> dict:
    """Usings, the target member (or None) and the other members of one code block."""
    lines = code.split("\n")
    usings = [l.strip() for l in lines if USING_RE.match(l)]
    tree = thread_parser("csharp").parse(code.encode("utf-8"))
    types = _types(tree.root_node)
    declared: list[Node] = []
    for t in types:
        members = _members(t)
        declared += members
        member, others = _match(members, target)
        if member is not None:
            return {"usings": usings, "member": member, "others": others, "in_type": True,
                    "declares_nothing": False, "rest": code, "declared": declared}
    rest = "\n".join(l for l in lines if not USING_RE.match(l))
    wrapped = thread_parser("csharp").parse((WRAP + rest + "\n}\n").encode("utf-8"))
    cls = next((c for c in wrapped.root_node.named_children if c.type == "class_declaration"), None)
    body = cls.child_by_field_name("body") if cls is not None else None
    members = [c for c in body.named_children if c.type in MEMBER_TYPES] if body is not None else []
    member, others = _match(members, target)
    return {"usings": usings, "member": member, "others": others, "in_type": False,
            "declares_nothing": not members or bool(wrapped.root_node.has_error and member is None),
            "rest": rest.strip("\n"), "declared": declared + members}


def _types(root: Node) -> list[Node]:
    """Type declarations anywhere outside method bodies (namespaces, nesting), outermost first."""
    out, stack = [], list(root.named_children)
    while stack:
        node = stack.pop(0)
        if node.type in TYPE_NODES:
            out.append(node)
            body = node.child_by_field_name("body")
            stack.extend(c for c in (body.named_children if body is not None else []) if c.type in TYPE_NODES)
        elif node.type in ("namespace_declaration", "file_scoped_namespace_declaration", "declaration_list"):
            stack.extend(node.named_children)
    return out


def _members(type_node: Node) -> list[Node]:
    body = type_node.child_by_field_name("body")
    return [c for c in body.named_children if c.type in MEMBER_TYPES] if body is not None else []


def _match(members: list[Node], target: Method) -> tuple[Node | None, list[Node]]:
    """The member that is the target (kind, name, parameter types, static-ness), and the others."""
    want = KIND_NODE.get(target.kind)
    same = [m for m in members if m.type == want and (target.kind in ("constructor", "indexer")
                                                      or _name(m) == target.name)]
    if target.kind in ("method", "constructor", "indexer"):
        types = [_type_key(t) for t in target.param_types]
        same = [m for m in same if [_type_key(t) for t in _param_types(m)] == types]
    static = "static" in target.modifiers
    same = [m for m in same if ("static" in _modifiers(m)) == static]
    if not same:
        return None, []
    chosen = same[-1] if len(same) > 1 and not any(_param_types(m) for m in same) else same[0]
    return chosen, [m for m in members if m is not chosen and m.type != "comment"]


def _type_key(text: str) -> str:
    """A parameter type compared without spaces, namespaces and the System aliases."""
    parts = re.split(r"([<>\[\],?])", "".join(text.split()))
    return "".join(ALIASES.get(p.rsplit(".", 1)[-1], p.rsplit(".", 1)[-1]) for p in parts)


def declared(node: Node) -> str:
    """A member as the correction names it: static-ness, return type, name and parameter types."""
    static = "static " if "static" in _modifiers(node) else ""
    ret = node.child_by_field_name("returns") or node.child_by_field_name("type")
    ret_text = " ".join(ret.text.decode("utf-8").split()) + " " if ret is not None else ""
    if node.type in ("property_declaration",):
        return f"{static}{ret_text}{_name(node)}"
    return f"{static}{ret_text}{_name(node)}({', '.join(_param_types(node))})"


def asked(target: Method) -> str:
    static = "static " if "static" in target.modifiers else ""
    ret = f"{' '.join(target.return_type.split())} " if target.return_type and target.kind != "constructor" else ""
    if target.kind == "property":
        return f"{static}{ret}{target.name}"
    name = "this" if target.kind == "indexer" else target.name
    return f"{static}{ret}{name}({', '.join(' '.join(t.split()) for t in target.param_types)})"


def normalised(code: str) -> str:
    """A candidate's C# tokens, whitespace and comments aside: two candidates with the same text here
    compile and test alike (agents.refine judges each once)."""
    tree = thread_parser("csharp").parse((WRAP + code + "\n}\n").encode("utf-8"))
    tokens, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            continue
        if node.child_count == 0:
            tokens.append(node.text.decode("utf-8", "replace"))
        stack.extend(reversed(node.children))
    return " ".join(t for t in tokens if t)


def _statements(code: str) -> bool:
    """A body-only answer reads as C# statements: it parses inside a method, or has statement ends."""
    tree = thread_parser("csharp").parse(("class __A__ { void __m__() {\n" + code + "\n} }").encode("utf-8"))
    return not tree.root_node.has_error or ";" in code


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    if name is not None:
        return name.text.decode("utf-8")
    if node.type in ("field_declaration", "event_field_declaration"):
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        var = next((c for c in decl.named_children if c.type == "variable_declarator"), None) if decl else None
        if var is not None:
            ident = var.child_by_field_name("name") or next(
                (c for c in var.named_children if c.type == "identifier"), None)
            if ident is not None:
                return ident.text.decode("utf-8")
    return "this" if node.type == "indexer_declaration" else ""


def _param_types(node: Node) -> list[str]:
    plist = node.child_by_field_name("parameters") or next(
        (c for c in node.named_children if c.type in ("parameter_list", "bracketed_parameter_list")), None)
    if plist is None:
        return []
    out, after_params = [], False
    for p in plist.children:         # `params T[] xs` is no `parameter` node: params, its type, its name
        t = p.child_by_field_name("type") if p.type == "parameter" else p if after_params and p.is_named else None
        after_params = p.type == "params"
        if t is not None:
            out.append(" ".join(t.text.decode("utf-8").split()))
    return out


def _modifiers(node: Node) -> set[str]:
    return {c.text.decode() for c in node.children if c.type == "modifier"}


def _is_private(node: Node) -> bool:
    return not _modifiers(node) & {"public", "protected", "internal"}


def _with_comments(node: Node) -> str:
    """The member's text with the comments right above it, indented as in the answer."""
    start = node
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "comment":
        start, prev = prev, prev.prev_named_sibling
    source = node.text.decode("utf-8") if start is node else _span(start, node)
    return " " * start.start_point[1] + source


def _span(first: Node, last: Node) -> str:
    root = first
    while root.parent is not None:
        root = root.parent
    return root.text[first.start_byte:last.end_byte].decode("utf-8")


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indents = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    cut = min(indents, default=0)
    return "\n".join(l[cut:] for l in lines)


def _unique(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(" ".join(item.split()), None)
    return list(seen)
