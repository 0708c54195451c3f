"""JDK classes .NET has no counterpart for (jdk_map.toml's [support]: LinkedHashMap's access order and
eviction), written as small C# classes of the same name that a generated type carries (skeleton).

A construction only such a class can stand for is written against it: `new LinkedHashMap<K, V>(n, f, true)`
(access order), and an anonymous subclass overriding one hook (`removeEldestEntry`), whose body becomes the
constructor's last argument, a lambda over the map itself and the hook's parameters: inside it, the map's own
methods called without a receiver are called on the map, and `Outer.this` is the enclosing instance.
Mixed into ExprTranslator (java_expr.py)."""
from __future__ import annotations

import re

import tree_sitter_java
from tree_sitter import Language, Node, Parser

_JAVA = Language(tree_sitter_java.language())
_OUTER_THIS = re.compile(r"\b[A-Z]\w*\s*\.\s*this\b")
_CREATED = re.compile(r"new (\w+)\s*[<(]")


def support_of(table: dict, base: str) -> dict | None:
    """The table's support class entry for a JDK class, or None."""
    return table.get("support", {}).get(base)


def needs_support(table: dict, base: str, argc: int, anonymous: bool) -> bool:
    """Whether `new base(<argc arguments>)` (with a class body when `anonymous`) is a construction only the
    support class stands for."""
    support = support_of(table, base)
    if support is None:
        return False
    creates = support["creates"]
    return bool(creates.get("anonymous")) if anonymous else argc in creates.get("argc", [])


def _receiverless(body: str, methods: set[str], receiver: str) -> str:
    """The hook's Java body with the map's own methods called without a receiver called on `receiver`, and
    `Outer.this` as `this` (the lambda's enclosing instance)."""
    body = _OUTER_THIS.sub("this", body)
    return re.sub(r"(?<![\w.$])(\w+)(\s*\()", lambda m: f"{receiver}.{m.group(1)}{m.group(2)}"
                  if m.group(1) in methods else m.group(0), body)


class SupportMixin:
    """Needs the ExprTranslator helpers (table, text, cs_type, scopes, declare, ident, lambda_block)."""

    def creates_support(self, cs_text: str) -> bool:
        """Whether the C# expression creates a support class (a local holding it is declared `var`)."""
        created = _CREATED.match(cs_text)
        return created is not None and support_of(self.table, created.group(1)) is not None

    def supported_new(self, base: str, targs: list[str], arg_texts: list[str], body: Node | None) -> str | None:
        """The C# creation of a support class for `new base<targs>(args) [{ body }]`, or None when the
        construction is none only the support class stands for (or its body overrides more than a hook)."""
        if not needs_support(self.table, base, len(arg_texts), body is not None):
            return None
        cs_args = "<" + ", ".join(self.cs_type(a) for a in targs) + ">" if targs else ""
        if body is None:
            return f"new {base}{cs_args}({', '.join(arg_texts)})"
        support = support_of(self.table, base)
        members = [c for c in body.named_children if "comment" not in c.type]
        if len(members) != 1 or members[0].type != "method_declaration" \
                or self.text(members[0].child_by_field_name("name")) not in support["hooks"]:
            return None
        hook = members[0]
        receiver = support["hooks"][self.text(hook.child_by_field_name("name"))]
        lam = self._hook_lambda(base, targs, hook, receiver)
        defaults = support["before_hook"]
        args = arg_texts + defaults[len(arg_texts):] if len(arg_texts) < len(defaults) else arg_texts
        return f"new {base}{cs_args}({', '.join([*args, lam])})"

    def _hook_lambda(self, base: str, targs: list[str], hook: Node, receiver: str) -> str:
        kind = self.table["kinds"].get(base, base)
        methods = {key.split("/", 1)[0] for key in self.table["methods"].get(kind, {})}
        params = [p for p in hook.child_by_field_name("parameters").named_children if p.type == "formal_parameter"]
        java_type = base + ("<" + ", ".join(targs) + ">" if targs else "")
        decls = ", ".join([f"{java_type} {receiver}"] + [self.text(p) for p in params])
        source = f"class __Hook {{ boolean __hook({decls}) " \
                 f"{_receiverless(self.text(hook.child_by_field_name('body')), methods, receiver)} }}"
        tree = Parser(_JAVA).parse(source.encode("utf-8"))
        method = tree.root_node.named_children[0].child_by_field_name("body").named_children[0]
        self.scopes.append({})
        self.declare(receiver, java_type)
        names = [receiver]
        for p in params:
            name = self.text(p.child_by_field_name("name"))
            self.declare(name, self.text(p.child_by_field_name("type")))
            names.append(self.ident(name))
        block = self.lambda_block(method.child_by_field_name("body"))
        self.scopes.pop()
        return f"({', '.join(names)}) => {block}"
