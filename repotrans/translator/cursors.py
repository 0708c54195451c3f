"""Java list iterators as index cursors: `ListIterator<T> it = list.listIterator()` (and an `Iterator`
over a list whose walk calls `it.remove()`) becomes two C# locals, the position and the index of the
last element returned (`int it = 0; int it__last = -1;`); hasNext/next/previous/remove/set/add are the
table's `ListCursor` templates over them ({L} is the list). .NET's IEnumerator has no remove, set or
add, and a List<T> enumerator fails once the list changes. A regex `Matcher m = p.matcher(s)` walks its input
likewise: the Regex, the input and the current Match (`MatchCursor`: find() is the first Match, then the next).
Mixed into StatementTranslator."""
from __future__ import annotations

import re

from tree_sitter import Node

from repotrans.translator.cs_types import split_type

_SIMPLE = re.compile(r"[A-Za-z_@][\w@]*(\.[A-Za-z_@][\w@]*)*")


class CursorsMixin:
    """Needs the translator helpers (text, expr, declare, local_name, table, cursors)."""

    def cursor_declaration(self, node: Node) -> list[str] | None:
        """The C# locals of a list iterator declared as `[List]Iterator<T> it = list.[list]iterator([i])`,
        or None when the declaration is no such walk."""
        declarators = node.children_by_field_name("declarator")
        declared = self.text(node.child_by_field_name("type"))
        base, targs = self.owner_of(declared), split_type(declared)[1]
        if len(declarators) != 1 or base not in ("ListIterator", "Iterator"):
            return None
        decl = declarators[0]
        value, name = decl.child_by_field_name("value"), self.text(decl.child_by_field_name("name"))
        if value is None or value.type != "method_invocation" or value.child_by_field_name("object") is None:
            return None
        method = self.text(value.child_by_field_name("name"))
        args = [a for a in value.child_by_field_name("arguments").named_children if "comment" not in a.type]
        if (method, base) not in (("listIterator", "ListIterator"), ("iterator", "Iterator")) or len(args) > 1 \
                or (base == "Iterator" and not self._removes(node, name)):
            return None
        recv, recv_type = self.expr(value.child_by_field_name("object"))
        if self.table["kinds"].get(self.owner_of(recv_type) or "") != "List":
            return None
        cs_name = self.local_name(decl, name)
        lines = []
        if not _SIMPLE.fullmatch(recv):
            lines.append(f"var {cs_name}__list = {recv};")
            recv = f"{cs_name}__list"
        start = self.expr(args[0])[0] if args else "0"
        lines += [f"int {cs_name} = {start};", f"int {cs_name}__last = -1;"]
        element = targs[0] if targs else (split_type(recv_type)[1] or ["Object"])[0]
        self.declare(name, f"ListCursor<{element}>", cs_name)
        self.cursors[cs_name] = recv
        return lines

    def matcher_declaration(self, node: Node) -> list[str] | None:
        """The C# locals of a regex walk declared as `Matcher m = pattern.matcher(input)`: the Regex, the
        input and the current Match (null until the first find), or None for any other declaration."""
        declarators = node.children_by_field_name("declarator")
        if len(declarators) != 1 or split_type(self.text(node.child_by_field_name("type")))[0] != "Matcher":
            return None
        decl = declarators[0]
        value, name = decl.child_by_field_name("value"), self.text(decl.child_by_field_name("name"))
        if value is None or value.type != "method_invocation" or value.child_by_field_name("object") is None \
                or self.text(value.child_by_field_name("name")) != "matcher":
            return None
        args = [a for a in value.child_by_field_name("arguments").named_children if "comment" not in a.type]
        if len(args) != 1:
            return None
        regex = self.expr(value.child_by_field_name("object"))[0]
        cs_name = self.local_name(decl, name)
        self.declare(name, "MatchCursor", cs_name)
        text, java_type = self.expr(args[0])
        text = f"{text}.ToString()" if java_type in ("StringBuilder", "StringBuffer") else text
        return [f"Regex {cs_name}__re = {regex};", f"string {cs_name}__in = {text};",
                f"Match {cs_name} = null;"]

    def _removes(self, node: Node, name: str) -> bool:
        """Whether the block declaring the iterator calls `name.remove()`."""
        scope = node.parent
        return scope is not None and re.search(rf"\b{re.escape(name)}\s*\.\s*remove\s*\(\s*\)", self.text(scope)) is not None
