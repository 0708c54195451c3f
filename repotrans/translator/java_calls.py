"""Calls, JDK member mapping (jdk_map.toml), lambdas and method references: the half of the
expression translator that talks to the table and the resolver. Mixed into ExprTranslator."""
from __future__ import annotations

import re

from tree_sitter import Node

from repotrans.translator.learned_calls import LearnedMixin
from repotrans.translator.cs_types import element_type, java_type_of, pascal, split_type
from repotrans.translator.templates import Typed, fill, format_args, java_format_to_net, prim


# String methods with no char overload in Java: a char argument there is a String the port retyped.
STRING_ONLY_PARAMS = frozenset({"startsWith", "endsWith", "split", "contains", "matches", "concat",
                                "equalsIgnoreCase", "compareTo", "compareToIgnoreCase", "replaceAll",
                                "replaceFirst", "contentEquals"})


def as_text(text: str, java_type: str | None) -> str:
    """A CharSequence argument as a C# string: a StringBuilder's text (Java's regex reads either)."""
    return f"{text}.ToString()" if java_type in ("StringBuilder", "StringBuffer") else text


# A Matcher's call on a matcher made (or reset) in the same expression: template over the Regex {R} and the
# input {I}, the Java argument count, the Java result type.
_CHAINED_MATCHER = {"replaceAll": ("{R}.Replace({I}, {1})", 1, "String"),
                    "replaceFirst": ("{R}.Replace({I}, {1}, 1)", 1, "String"),
                    # the whole input, as Java's matches() backtracks into it: `1|12` matches "12"
                    "matches": ("new Regex(\"^(?:\" + {R} + \")\\\\z\", {R}.Options).IsMatch({I})", 0, "boolean"),
                    "lookingAt": ("({R}.Match({I}).Success && {R}.Match({I}).Index == 0)", 0, "boolean"),
                    "find": ("{R}.Match({I}).Success", 0, "boolean")}



_JDK_QUALIFIED = re.compile(r"^javax?\.(?:[a-z_]\w*\.)+([A-Z]\w*)$")


def jdk_simple(text: str) -> str | None:
    """The simple name of a JDK class written with its package (`java.util.Arrays` -> Arrays), else None."""
    found = _JDK_QUALIFIED.match(text)
    return found.group(1) if found else None

class CallsMixin(LearnedMixin):
    """Needs the ExprTranslator helpers (expr, ex, text, lookup, declare, ident, cs_type, r, table)."""
    # ---- calls ---------------------------------------------------------------------------
    def args(self, node: Node | None) -> list[Node]:
        return [] if node is None else [c for c in node.named_children if "comment" not in c.type]

    def lookup_entry(self, section: dict, name: str, argc: int, arg_types: list[str | None]) -> dict | str | None:
        first = prim(arg_types[0]) if arg_types else None
        typed_keys = [f"{name}/{argc}:{first}"] + ([f"{name}/{argc}:[]"] if first.endswith("]") else []) if first else []
        for key in typed_keys + [f"{name}/{argc}", f"{name}/*"]:
            if key in section:
                return section[key]
        return None

    def apply(self, entry: dict, recv: str, recv_type: str | None, arg_texts: list[str],
              arg_types: list[str | None], expected: str | None, statement: bool) -> Typed:
        java_args = split_type(recv_type)[1] if recv_type else []
        first_type = arg_types[0] if arg_types else None
        if not java_args and expected:
            java_args = split_type(expected)[1]
        if not java_args and first_type:
            java_args = [first_type if "[" not in first_type or len(arg_texts) > 1 else element_type(first_type)]
        cs_args = [self.cs_type(a) for a in java_args]
        elem = element_type(first_type)
        values = {str(i + 1): t for i, t in enumerate(arg_texts)}
        values.update({"0": recv, "args": ", ".join(arg_texts), "rest": ", ".join(arg_texts[1:]), "L": self.cursors.get(recv, recv),
                       "T": cs_args[0] if cs_args else "object",
                       "V": cs_args[1] if len(cs_args) > 1 else "object",
                       "E0": self.cs_type(elem) if elem else "object"})
        if entry.get("format"):
            values["args"] = format_args(arg_texts, arg_types) or values["args"]
        template = entry.get("stmt") if statement and entry.get("stmt") else entry["cs"]
        ret = entry.get("ret")
        if ret:
            static_args = java_args if recv_type else [first_type or "Object"]
            ret_values = {f"A{i}": a for i, a in enumerate(static_args)}
            ret_values["E0"] = (element_type(first_type) or "Object") if first_type else "Object"
            ret = fill(ret, ret_values)
            if "{" in ret:
                ret = None
        return fill(template, values), ret

    def _call(self, node: Node, expected: str | None, statement: bool = False) -> Typed:
        """A method call: the JDK table's (a JDK class named with its package too), the resolver's, the port's."""
        obj = node.child_by_field_name("object")
        name = self.text(node.child_by_field_name("name"))
        arg_nodes = self.args(node.child_by_field_name("arguments"))
        chained = self._chained_matcher(obj, name, arg_nodes)
        if chained is not None:
            return chained
        if obj is not None and obj.type not in ("this", "super") and self.text(obj) not in self.table["statics"] \
                and jdk_simple(self.text(obj)) not in self.table["statics"]:
            recv, recv_type = self.expr(obj)
            hint = split_type(recv_type)[1] if recv_type else []
        else:
            recv, recv_type, hint = "", None, []
        arg_texts, arg_types = self._typed_args(arg_nodes, hint)
        if recv_type == "char":
            # a Java primitive has no methods: the receiver is a String the port declares as a char
            # (pinyin4j's Field.LEFT_BRACKET = "(" is Pinyin4j.Net's '('), read as a string
            recv, recv_type = f"{recv}.ToString()", "String"
        if prim(recv_type) == "String" and name in STRING_ONLY_PARAMS:
            # likewise an argument where Java's String method takes no char
            arg_texts = [f"{t}.ToString()" if ty == "char" else t for t, ty in zip(arg_texts, arg_types)]
            arg_types = ["String" if ty == "char" else ty for ty in arg_types]
        text, ty = self._dispatch(obj, name, arg_nodes, recv, recv_type, arg_texts, arg_types, expected, statement)
        learned = self.learned_call(obj, name, recv, recv_type, arg_texts, arg_nodes, arg_types[0] if arg_types else None)
        return (learned, ty) if learned is not None else (text, ty)

    def _chained_matcher(self, obj: Node | None, name: str, arg_nodes: list[Node]) -> Typed | None:
        """A matcher used once, in the same expression: `p.matcher(s).replaceFirst(r)` (or a cursor reset
        there, `m.reset(s).replaceAll(r)`) is the Regex over that input."""
        if obj is None or obj.type != "method_invocation" or name not in _CHAINED_MATCHER or \
                len(arg_nodes) != _CHAINED_MATCHER[name][1]:
            return None
        inner = self.text(obj.child_by_field_name("name"))
        inner_args = self.args(obj.child_by_field_name("arguments"))
        inner_obj = obj.child_by_field_name("object")
        if inner_obj is None or len(inner_args) != 1 or inner not in ("matcher", "reset"):
            return None
        recv, recv_type = self.expr(inner_obj)
        owner = self.owner_of(recv_type)
        if inner == "matcher" and owner and {"matcher", "Matcher"} & set(self.r.members(owner)):
            return None       # a project type's own matcher(..): the resolver's (else Pattern's, or the port's
                              # own Regex: libphonenumber-csharp's PhoneRegex)
        if inner == "reset" and recv_type != "MatchCursor":
            return None
        regex = f"{recv}__re" if inner == "reset" else recv
        text = as_text(*self.expr(inner_args[0]))
        source = f"({recv}__in = {text})" if inner == "reset" else text
        args = [self.expr(a)[0] for a in arg_nodes]
        return fill(_CHAINED_MATCHER[name][0], {"R": regex, "I": source, **{str(i + 1): a for i, a in enumerate(args)}}), \
            _CHAINED_MATCHER[name][2]

    def _dispatch(self, obj: Node | None, name: str, arg_nodes: list[Node], recv: str, recv_type: str | None,
                  arg_texts: list[str], arg_types: list[str | None], expected: str | None, statement: bool) -> Typed:
        """The call by the JDK table, the resolver's names and the port's conventions."""
        argc = len(arg_nodes)
        if obj is None or obj.type == "this":
            alias, owner = self.this_alias or ("this", None)
            entry = self.lookup_entry(self.table["methods"]["Object"], name, argc, arg_types)
            if entry is not None and pascal(name) not in self.r.members(owner):
                return self.apply(entry, alias, None, arg_texts, arg_types, expected, statement)
            prefix = f"{alias}." if obj is not None or self.this_alias else ""
            return self._member_call(owner, prefix, name, arg_nodes, arg_texts)
        obj_raw = self.text(obj)
        if obj_raw in ("System.out", "System.err"):
            entry = self.lookup_entry(self.table["console"], name, argc, arg_types)
            if entry is not None:
                writer = "Console" if obj_raw == "System.out" else "Console.Error"
                values = {"W": writer}
                values.update({str(i + 1): t for i, t in enumerate(arg_texts)})
                values["args"] = ", ".join(arg_texts)
                if name in ("printf", "format"):
                    values["args"] = format_args(arg_texts, arg_types) or values["args"]
                return fill(entry, values), "void"
        if obj.type != "identifier" and jdk_simple(obj_raw) in self.table["statics"]:
            obj_raw = jdk_simple(obj_raw)          # `java.util.Arrays.fill(..)` is Arrays.fill(..)
        elif obj.type != "identifier" or self.lookup(obj_raw) is not None:
            obj_raw = ""
        if obj_raw in self.table["statics"]:
            entry = self.lookup_entry(self.table["statics"][obj_raw], name, argc, arg_types)
            if entry is not None:
                text, java_type = self.apply(entry, "", None, arg_texts, arg_types, expected, statement)
                return self.created_as_port(text, java_type or ""), java_type
        if obj.type == "super":
            supers = getattr(self.r, "_supertypes", lambda owner: [])(None)
            if name == "clone" and argc == 0 and not any("Clone" in self.r.members(s) for s in supers):
                return "MemberwiseClone()", "Object"    # Object.clone(): C#'s object has no Clone()
            return self._member_call(None, "base.", name, arg_nodes, arg_texts)
        if not recv:      # a JDK class the table has no entry for: translate it as a plain static call
            recv, recv_type = self.expr(obj)
        if recv_type and recv_type.startswith("#"):
            owner = recv_type[1:]
            entry = self.table["statics"]["Enum"].get(f"{name}/{argc}") if self.r.is_enum(owner) else None
            if entry is not None and pascal(name) not in self.r.members(owner):
                values = {"T": recv, "1": arg_texts[0] if arg_texts else ""}
                return fill(entry["cs"], values), fill(entry["ret"], {"T": owner})
            return self._member_call(owner, f"{recv}.", name, arg_nodes, arg_texts)
        if obj.type in ("binary_expression", "ternary_expression", "cast_expression", "lambda_expression"):
            recv = f"({recv})"
        if name == "clone" and argc == 0 and recv_type and recv_type.endswith("]"):
            return f"({self.cs_type(recv_type)}){recv}.Clone()", recv_type     # Array.Clone() is an object
        base = self.owner_of(recv_type)
        functional = self.table["functional"].get(base or "")
        if functional is not None and functional["call"] == name:
            ret = fill(functional["ret"], {f"A{i}": a for i, a in enumerate(split_type(recv_type)[1])})
            return f"{recv}({', '.join(arg_texts)})", None if "{" in ret else ret
        kind = self.table["kinds"].get(base or "")
        if kind is None and base and self.r.is_enum(base) and name not in self.r.members(base) \
                and pascal(name) not in self.r.members(base):
            kind = "Enum"
        if kind is None and base and (base.endswith(("Exception", "Error")) or base in self.caught):
            kind = "Throwable"
        sections = [kind] if kind else []
        sections.append("Object")
        if recv_type is None:
            sections.append("Unknown")
        for section in sections:
            entry = self.lookup_entry(self.table["methods"][section], name, argc, arg_types)
            if entry is not None:
                return self.apply(entry, recv, recv_type, arg_texts, arg_types, expected, statement)
        return self._member_call(base, f"{recv}.", name, arg_nodes, arg_texts)

    def _typed_args(self, arg_nodes: list[Node], hint: list[str]) -> tuple[list[str], list[str | None]]:
        """Translate arguments; implicit lambda parameters get the receiver's (or first argument's)
        type arguments, so `w -> w.length()` on a Stream<String> knows `w` is a String."""
        texts: list[str] = []
        types: list[str | None] = []
        for node in arg_nodes:
            expected = None
            if node.type == "lambda_expression":
                params = node.child_by_field_name("parameters")
                count = 1 if params.type == "identifier" else len(params.named_children)
                elems = hint or (split_type(types[0])[1] if types and types[0] else [])
                if not elems and types and types[0] and types[0].endswith("]"):
                    elems = [element_type(types[0]) or "Object"]
                if elems:
                    chosen = elems[:count] if len(elems) >= count > 1 else [elems[0]] * count
                    result = elems[count] if len(elems) > count else "Object"
                    expected = f"Lambda<{', '.join(chosen + [result])}>"
            text, ty = self.expr(node, expected)
            texts.append(text)
            types.append(ty)
        return texts, types

    def _member_call(self, owner: str | None, prefix: str, name: str, arg_nodes: list[Node],
                     arg_texts: list[str]) -> Typed:
        argc = len(arg_texts)
        prop = self.r.property_name(owner, name, argc)
        ret = self.r.method_return(owner, name, argc)
        if prop is not None:
            return (f"{prefix}{prop}" if argc == 0 else f"{prefix}{prop} = {arg_texts[0]}"), ret
        member = self.r.method_name(owner, name, argc)
        known = self.r.members(owner)
        indexed = self._indexer_call(owner, prefix, name, arg_texts, member, known)
        if indexed is not None:
            return indexed
        field = self.r.getter_field(owner, name, argc) if member not in known else None
        if field is not None:
            declared = self.r.declared_field_type(owner, field)
            return f"{prefix}{field}", ret or (java_type_of(declared) if declared else None)
        factory = self._removed_factory(owner, prefix, name, member, known, arg_texts)
        if factory is not None:
            return factory
        if not prefix and owner is None and known and member not in known and not self.static_context:
            prefix = "this."      # not declared by the class or its bases: an extension method in C#
        return f"{prefix}{member}({', '.join(arg_texts)})", ret

    def _removed_factory(self, owner: str | None, prefix: str, name: str, member: str, known: list[str],
                         arg_texts: list[str]) -> Typed | None:
        """`Owner.getXInstance(...)` (Java's shared-instance factory, e.g. ZXing's exceptions) where the
        port's Owner has no such member but a constructor: `new Owner(...)`, the nearest member it has."""
        cs_owner = self.cs_type(owner) if owner else ""
        if not owner or not known or member in known or not re.fullmatch(r"(get|new)\w*Instance", name) \
                or prefix.rstrip(".") not in (owner, cs_owner) or cs_owner.rsplit(".", 1)[-1] not in known:
            return None
        return f"new {cs_owner}({', '.join(arg_texts)})", owner

    def _indexer_call(self, owner: str | None, prefix: str, name: str, arg_texts: list[str], member: str,
                      known: list[str]) -> Typed | None:
        """get(i)/set(i, v) (and a bit set's set(x, y)/unset(x, y)) that the port turned into `this[...]`."""
        found = getattr(self.r, "indexer", lambda owner: None)(owner)
        if found is None or member in known or name not in ("get", "set", "unset"):
            return None
        element, arity = found
        recv = prefix[:-1] if prefix else "this"
        access = f"{recv}[{', '.join(arg_texts[:arity])}]"
        if name == "get" and len(arg_texts) == arity:
            return access, java_type_of(element) if element else None
        if name == "set" and len(arg_texts) == arity + 1:
            return f"{access} = {arg_texts[arity]}", "void"
        if element == "bool" and len(arg_texts) == arity:
            return f"{access} = {'true' if name == 'set' else 'false'}", "void"
        return None

    # ---- lambdas and method references ----------------------------------------------------
    def _lambda(self, node: Node, expected: str | None) -> Typed:
        params = node.child_by_field_name("parameters")
        exp_base, exp_args, _ = split_type(expected) if expected else ("", [], 0)
        self.scopes.append({})
        names: list[str] = []
        typed_parts: list[str] = []
        nodes = [params] if params.type == "identifier" else params.named_children
        for i, p in enumerate(nodes):
            if p.type == "formal_parameter":
                pname, ptype = self.text(p.child_by_field_name("name")), self.text(p.child_by_field_name("type"))
                typed_parts.append(f"{self.cs_type(ptype)} {self.ident(pname)}")
            else:
                pname, ptype = self.text(p), exp_args[i] if i < len(exp_args) else None
            self.declare(pname, ptype)
            names.append(self.ident(pname))
        body = node.child_by_field_name("body")
        result = exp_args[-1] if len(exp_args) > len(names) and exp_args[-1] != "Object" else None
        body_text = self.lambda_block(body) if body.type == "block" else self.ex(body, result)
        self.scopes.pop()
        if typed_parts:
            head = f"({', '.join(typed_parts)})"
        else:
            head = names[0] if len(names) == 1 else f"({', '.join(names)})"
        return f"{head} => {body_text}", expected

    def _method_ref(self, node: Node, expected: str | None) -> Typed:
        left, right = node.named_children[0], node.children[-1]
        left_raw, name = self.text(left), self.text(right)
        if name == "new":
            return f"() => new {self.cs_type(left_raw)}()", expected
        if left_raw in ("System.out", "System.err"):
            writer = "Console" if left_raw == "System.out" else "Console.Error"
            return f"x => {writer}.WriteLine(x)", expected
        statics = self.table["statics"].get(left_raw, {})
        for argc in (1, 2, 3):
            entry = statics.get(f"{name}/{argc}")
            if entry is not None:
                params = [f"__a{i + 1}" for i in range(argc)]
                text, _ = self.apply(entry, "", None, params, [None] * argc, None, False)
                head = params[0] if argc == 1 else f"({', '.join(params)})"
                return f"{head} => {text}", expected
        kind = self.table["kinds"].get(left_raw)
        if kind is not None:
            entry = self.table["methods"][kind].get(f"{name}/0")
            if entry is not None:
                return f"__x => {self.apply(entry, '__x', None, [], [], None, False)[0]}", expected
        if left.type == "this":
            return self.r.method_name(None, name, -1), expected
        if left_raw[:1].isupper():
            if any("static" in sig.split("(")[0].split() for sig in self.r.signatures(left_raw, pascal(name))):
                return f"{self.cs_type(left_raw)}.{self.r.method_name(left_raw, name, -1)}", expected
            prop = self.r.property_name(left_raw, name, 0)
            member = prop if prop is not None else f"{self.r.method_name(left_raw, name, 0)}()"
            return f"__x => __x.{member}", expected
        return f"{self.ex(left)}.{self.r.method_name(None, name, -1)}", expected
