"""The port's own idiom for a call, before the static JDK table: the learned API map (mapping.api_map)
the resolver carries (`resolver.api`, already without the task's own pair). Mixed into ExprTranslator.

A key the mapping pairs with a C# member is left to the resolver (renames, properties). A key the JDK
table also covers needs two observations to win over the table; a callee with no C# counterpart (a
helper the port removed) takes the port's replacement from one."""
from __future__ import annotations

import re

from tree_sitter import Node

from repotrans.mapping.api_map import ApiMap
from repotrans.mapping.api_sites import simple_type
from repotrans.translator.cs_types import split_type
from repotrans.translator.templates import fill

JDK_MIN_COUNT = 2
_GENERIC_USE = re.compile(r"\w<")


def _unmarked(template: str, n: int, text: str) -> str:
    """Argument `n` without its `ref`/`out` when the template passes it by reference itself (`ref {n}`):
    the translator already marks a local the port passes by `ref` (contract_types), never twice."""
    if re.search(rf"\b(?:ref|out)\s+\{{{n}\}}", template):
        return re.sub(r"^(?:ref|out)\s+", "", text)
    return text


class LearnedMixin:
    """Needs the ExprTranslator helpers (r, table, text, lookup)."""

    def learned_api(self) -> ApiMap | None:
        return getattr(self.r, "api", None)

    def created_as_port(self, text: str, java_type: str) -> str:
        """A JDK value the candidate creates (`new Regex(..)` for `Pattern.compile(..)`) as the port's own
        type deriving from its .NET counterpart (mapping.wrapped_types: libphonenumber's PhoneRegex), when
        the port declares one for that JDK type: it goes wherever the counterpart does, and where the port
        declares its own type (a result, a field) it is the value the port's code expects."""
        api = self.learned_api()
        base = split_type(java_type)[0]
        counterpart = self.table["types"].get(base)
        if api is None or counterpart is None or not text.startswith(f"new {counterpart}("):
            return text
        port = api.wrapper(base)
        return f"new {port}{text[len('new ' + counterpart):]}" if port else text

    def _jdk_owner(self, owner: str) -> bool:
        table = self.table
        return owner in table["types"] or owner in table["statics"] or owner in table["kinds"] \
            or owner.endswith(("Exception", "Error"))

    def learned(self, key: str, owner: str, recv: str, arg_texts: list[str], arg_nodes: list[Node],
                first_type: str | None = None, paired_too: bool = False) -> str | None:
        """The port's template for `key` filled with the receiver and arguments, or None. `first_type` is
        the first argument's Java type as the translator inferred it (a template seen with another is
        not used); `paired_too`: also for a callee the mapping pairs (its owner undescribed)."""
        api = self.learned_api()
        if api is None or not owner or owner == "?" or (key in api.mapped and not paired_too):
            return None
        java_args = [self.text(n) for n in arg_nodes]
        choice = api.choose(key, java_args, min_count=JDK_MIN_COUNT if self._jdk_owner(owner) else 1,
                            arg_type=simple_type(first_type) + "[]" * re.sub(r"<.*>", "", first_type).count("[")
                            if first_type else None)
        if choice is None or ("{0}" in choice.template and not recv) or _GENERIC_USE.search(choice.template):
            return None       # a type argument written in the template belongs to the example's context
        values = {"0": recv, **{str(i + 1): _unmarked(choice.template, i + 1, t) for i, t in enumerate(arg_texts)}}
        return fill(choice.template, values)

    def learned_call(self, obj: Node | None, name: str, recv: str, recv_type: str | None, arg_texts: list[str],
                     arg_nodes: list[Node], first_type: str | None = None) -> str | None:
        """A method invocation: `Own.helper/n` for an unqualified or `this.` call, `Type.name/n` on a type,
        `Type#name/n` on a receiver of a known Java type."""
        argc = len(arg_texts)
        if obj is None or obj.type == "this":      # the class's own helper, else one it inherits
            owners = [getattr(self.r, "current", None) or ""]
            supertypes = getattr(self.r, "_supertypes", None)
            owners += supertypes(None) if supertypes is not None else []
            api = self.learned_api()
            for owner in owners:
                if api is not None and f"{owner}.{name}/{argc}" in api.mapped:
                    return None               # declared there and paired: the resolver's
                found = self.learned(f"{owner}.{name}/{argc}", owner, "", arg_texts, arg_nodes, first_type)
                if found is not None:
                    return found
            if getattr(self, "static_context", False):
                return None
            # then an instance method as the port's code writes it on a receiver (`parent()` is `this.parent()`,
            # NSoup's `node.ParentNode`), once no owner pairs the callee (a paired one is the resolver's)
            this = self.this_alias[0] if getattr(self, "this_alias", None) else "this"
            for owner in filter(None, owners):
                if api is not None and f"{owner}#{name}/{argc}" in api.mapped:
                    return None
                found = self.learned(f"{owner}#{name}/{argc}", owner, this, arg_texts, arg_nodes, first_type)
                if found is not None:
                    return found
            return None
        raw = self.text(obj)
        if obj.type in ("identifier", "field_access") and self.lookup(raw.split(".")[0]) is None \
                and raw[:1].isupper() and all(p.isidentifier() for p in raw.split(".")):
            owner = simple_type(raw)
            return self.learned(f"{owner}.{name}/{argc}", owner, "", arg_texts, arg_nodes, first_type)
        owner = simple_type(recv_type) if recv_type and not recv_type.startswith("#") else ""
        if not owner:
            return None
        supertypes = getattr(self.r, "_supertypes", None)
        api = self.learned_api()
        described = getattr(self.r, "_type", lambda o: None)
        for declaring in [owner, *(supertypes(owner) if supertypes is not None else [])]:
            paired = api is not None and f"{declaring}#{name}/{argc}" in api.mapped
            if paired and described(declaring) is not None:
                return None                   # declared there, paired and described: the resolver's
            found = self.learned(f"{declaring}#{name}/{argc}", declaring, recv, arg_texts, arg_nodes, first_type,
                                 paired_too=True)     # (paired, but the resolver knows nothing of its owner)
            if paired and found is None:
                return None
            if found is not None:              # (a subtype's receiver reaches what its supertype declares)
                return found
        return None
