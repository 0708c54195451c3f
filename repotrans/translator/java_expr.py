"""Java expressions -> C# 6 expressions, driven by the tree-sitter Java tree and jdk_map.toml.

Every translation returns (C# text, Java type or None). Java types are kept as written
("List<String>", "int[]"); "#Name" marks a reference to a type (static access).
"""
from __future__ import annotations

import re
from typing import Callable

from tree_sitter import Node

from repotrans.mapping.api_sites import simple_type
from repotrans.translator.contract_types import REF, compatible, retyped
from repotrans.translator.java_calls import CallsMixin
from repotrans.translator.java_new import CreationMixin
from repotrans.translator.literals import octal_escapes, out_of_range
from repotrans.translator.regex_dialect import java_regex, net_regex, regex_literal
from repotrans.translator.cs_types import element_type, split_type, table_for
from repotrans.translator.resolver import NameResolver
from repotrans.translator.support_types import SupportMixin
from repotrans.translator.templates import Typed, as_net_format, fill, prim

_JDK_PACKAGE = re.compile(r"javax?\.(?:[a-z]\w*\.)+[A-Z]")     # java.util.List, javax.swing.text.X

NUMERIC_RANK = {"byte": 1, "short": 1, "char": 1, "int": 1, "long": 2, "float": 3, "double": 4}
RANK_TYPE = {1: "int", 2: "long", 3: "float", 4: "double"}
COMPARISON_OPS = {"==", "!=", "<", ">", "<=", ">=", "&&", "||"}
_CONST_OVERFLOW = re.compile(r"\b(int|long)\.M(ax|in)Value\b")
_TYPE_WORD = re.compile(r"\b[A-Z]\w*\b")


class ExprTranslator(CallsMixin, CreationMixin, SupportMixin):
    """Expression half of the method translator; `MethodTranslator` adds statements and scopes."""

    def __init__(self, resolver: NameResolver, source: bytes):
        self.r = resolver
        self.src = source
        self.table = table_for(getattr(resolver, "libraries", frozenset()))
        self.scopes: list[dict[str, tuple[str, str | None]]] = [{}]
        self.temp_counter = 0
        self.keywords = frozenset(self.table["csharp"]["keywords"])
        self.type_map: dict[str, str] = dict(resolver.type_params())   # Java type parameter -> C# one
        self.this_alias: tuple[str, str] | None = None   # extension method: (`this` parameter, its type)
        self.static_context = False                       # translating a static member: no `this`
        self.cursors: dict[str, str] = {}                 # list iterator local -> its list (cursors.py)
        self.caught: set[str] = set()                     # types a catch clause names: Throwables, whatever their name
        self.dispatch: dict[str, Callable[[Node, str | None], Typed]] = {
            "identifier": self._identifier, "field_access": self._field_access,
            "method_invocation": self._call, "object_creation_expression": self._new,
            "array_creation_expression": self._new_array, "array_initializer": self._array_init,
            "array_access": self._array_access, "binary_expression": self._binary,
            "unary_expression": self._unary, "update_expression": self._update,
            "assignment_expression": self._assign, "ternary_expression": self._ternary,
            "instanceof_expression": self._instanceof, "cast_expression": self._cast,
            "parenthesized_expression": self._paren, "switch_expression": self._switch_value, "lambda_expression": self._lambda,
            "method_reference": self._method_ref, "class_literal": self._class_literal,
            "decimal_integer_literal": self._int_literal, "hex_integer_literal": self._int_literal,
            "octal_integer_literal": self._int_literal, "binary_integer_literal": self._int_literal,
            "decimal_floating_point_literal": self._float_literal, "string_literal": self._string_literal,
            "character_literal": lambda n, e: (octal_escapes(self.text(n)), "char"),
            "true": lambda n, e: ("true", "boolean"), "false": lambda n, e: ("false", "boolean"),
            "null_literal": lambda n, e: ("null", None), "this": lambda n, e: (self.this_alias[0] if self.this_alias else "this", None),
            "super": lambda n, e: ("base", None),
        }

    # ---- helpers -------------------------------------------------------------------------
    def text(self, node: Node | None) -> str:
        return node.text.decode("utf-8") if node is not None else ""

    def lookup(self, name: str) -> tuple[str, str | None] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def declare(self, name: str, java_type: str | None, cs_name: str | None = None) -> None:
        self.scopes[-1][name] = (cs_name or self.ident(name), java_type)

    def ident(self, name: str) -> str:
        """A Java identifier as a C# identifier (`@out` for C# keywords)."""
        return "@" + name if name in self.keywords else name

    def cs_type(self, java_type: str) -> str:
        if self.type_map:
            java_type = _TYPE_WORD.sub(lambda m: self.type_map.get(m.group(0), m.group(0)), java_type)
        return self.r.type_name(java_type)

    def temp(self, stem: str) -> str:
        self.temp_counter += 1
        return f"__{stem}{self.temp_counter}"

    def lambda_block(self, block: Node) -> str:   # provided by MethodTranslator
        raise NotImplementedError

    def expr(self, node: Node, expected: str | None = None) -> Typed:
        handler = self.dispatch.get(node.type)
        if handler is None:
            return self.text(node), None
        return handler(node, expected)

    def ex(self, node: Node, expected: str | None = None) -> str:
        return self.expr(node, expected)[0]

    def coerce(self, text: str, src: str | None, dst: str | None) -> str:
        """Explicit narrowing C# needs where Java converts implicitly (int -> char, constants -> byte)."""
        src, dst = prim(src), prim(dst)
        if dst == "char" and src in ("int", "long", "short", "byte"):
            return f"(char)({text})"
        if dst in ("byte", "short") and src == "int" and not re.fullmatch(r"-?\d+", text):
            return f"({dst})({text})"
        return text

    def owner_of(self, java_type: str | None) -> str | None:
        """The base of a Java type as the tables name it: a JDK type written with its package (libphonenumber's
        `java.util.List<NumberFormat> numberFormat_`) by its simple name, as Java reads it."""
        if not java_type:
            return None
        base = split_type(java_type.lstrip("#"))[0]
        return base.rsplit(".", 1)[-1] if _JDK_PACKAGE.match(base) else base

    def label_enum(self, values: list[Node]) -> str | None:
        """The enum whose constants these case labels name, when the switch's subject type is unknown:
        bare identifiers that are no local and no field of this class, all declared by one enum the
        context describes."""
        names = [self.text(v) for v in values if v.type == "identifier"]
        if not names or any(self.lookup(n) is not None or self.r.field_type(None, n) is not None for n in names):
            return None
        return self.r.enum_of(names)

    def case_constant(self, value: Node, enum_owner: str | None) -> str:
        """A case label's constant: an enum's qualified as C# requires (`case Color.Red:`, the port's own
        spelling and nesting), else the expression; an unknown bare name is kept, never read as a type."""
        name = self.text(value)
        if value.type != "identifier":
            return self.ex(value)
        if enum_owner:
            return f"{self.r.enum_type(enum_owner)}.{self.r.field_name(enum_owner, name)}"
        if self.lookup(name) is None and self.r.field_type(None, name) is None and name[:1].isupper() \
                and not name.isupper():
            return name
        return self.ex(value)

    # ---- names ---------------------------------------------------------------------------
    def _identifier(self, node: Node, expected: str | None) -> Typed:
        name = self.text(node)
        local = self.lookup(name)
        if local is not None and node.parent is not None and node.parent.type == "argument_list" \
                and getattr(self, "contract", {}).get(name, "").startswith(REF):
            return f"ref {local[0]}", local[1]       # the port's `ref int` for Java's one-element array
        if local is not None:
            return local
        field_type = self.r.field_type(None, name)
        if field_type is not None or not name[:1].isupper() or name.isupper():
            if self.this_alias:
                alias, owner = self.this_alias
                if name.isupper():      # a constant of the extended type (an enum's own constants)
                    return f"{self.cs_type(owner)}.{self.r.field_name(owner, name)}", owner
                return f"{alias}.{self.r.field_name(owner, name)}", self.r.field_type(owner, name)
            cs = self.r.field_name(None, name)
            if field_type is not None and cs not in self.r.members(None):
                # an own constant the port moved or renamed (ZXing.Net's HighLevelEncoder.ASCII_ENCODATION
                # is Encodation.ASCII): as the port writes it in its other aligned pairs
                current = getattr(self.r, "current", None) or ""
                learned = self.learned(f"{current}.{name}", current, "", [], []) if current else None
                if learned is not None:
                    return learned, field_type
            return self._as_java(cs, None, name) if field_type is not None else (cs, field_type)
        return self.cs_type(name), "#" + name

    def _field_access(self, node: Node, expected: str | None) -> Typed:
        obj, name = node.child_by_field_name("object"), self.text(node.child_by_field_name("field"))
        raw = self.text(obj)
        if obj.type in ("identifier", "field_access") and raw[:1].isupper() and self.lookup(raw.split(".")[0]) is None:
            learned = self.learned(f"{simple_type(raw)}.{name}", simple_type(raw), "", [], [])
            if learned is not None:        # typed still: the port's ZXing Mode.NUMERIC is a Mode
                static = self.table["static_fields"].get(f"{raw}.{name}")
                return learned, static.get("ret") if static else self.r.field_type(simple_type(raw), name)
        static = self.table["static_fields"].get(f"{self.text(obj)}.{name}")
        if static is not None and self.lookup(self.text(obj)) is None:
            return static["cs"], static.get("ret")
        if obj.type == "this":
            alias, owner = self.this_alias or ("this", None)
            return self._as_java(f"{alias}.{self.r.field_name(owner, name)}", owner, name)
        obj_text, obj_type = self.expr(obj)
        if name == "length" and (obj_type is None or obj_type.endswith("]")):
            return f"{obj_text}.Length", "int"
        owner = self.owner_of(obj_type)
        return self._as_java(f"{obj_text}.{self.r.field_name(owner, name)}", owner, name)

    def _as_java(self, text: str, owner: str | None, name: str) -> Typed:
        """A field read typed as Java declares it; a one-character String constant the port declares as a
        `char` (pinyin4j's Field.LEFT_BRACKET = "(" is Pinyin4j.Net's '(') is read as a string, which
        every String call on it expects."""
        java = self.r.field_type(owner, name)
        declared = getattr(self.r, "declared_field_type", lambda o, n: None)(owner, name)
        if prim(java) == "String" and declared == "char":
            return f"{text}.ToString()", java
        return text, java

    def _class_literal(self, node: Node, expected: str | None) -> Typed:
        return f"typeof({self.cs_type(self.text(node.named_children[0]))})", "Class"

    # ---- literals ------------------------------------------------------------------------
    def _int_literal(self, node: Node, expected: str | None) -> Typed:
        raw = self.text(node).replace("_", "")
        suffix = "L" if raw[-1:] in "lL" else ""
        digits = raw.rstrip("lL")
        if digits[:2].lower() == "0b":
            digits = str(int(digits[2:], 2))
        elif len(digits) > 1 and digits[0] == "0" and digits.isdigit():
            digits = str(int(digits, 8))
        return digits + suffix, "long" if suffix else "int"

    def _float_literal(self, node: Node, expected: str | None) -> Typed:
        raw = self.text(node).replace("_", "")
        kind = "float" if raw[-1:] in "fF" else "double"
        if re.fullmatch(r"\d+\.", raw):
            raw += "0"
        return raw, kind

    def _string_literal(self, node: Node, expected: str | None) -> Typed:
        raw = self.text(node)
        if raw.startswith('"""'):
            lines = raw[3:-3].split("\n")[1:]
            indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
            value = "\n".join(l[indent:] for l in lines)
            return '@"' + value.replace('"', '""') + '"', "String"
        text = net_regex(raw)
        regex = java_regex(text)                     # Java-only regex forms: only where the literal is a regex
        return octal_escapes(regex if regex != text and regex_literal(node) else text), "String"

    def _array_access(self, node: Node, expected: str | None) -> Typed:
        arr, arr_type = self.expr(node.child_by_field_name("array"))
        return f"{arr}[{self.ex(node.child_by_field_name('index'))}]", element_type(arr_type)

    # ---- operators -------------------------------------------------------------------------
    def _binary(self, node: Node, expected: str | None) -> Typed:
        op = self.text(node.child_by_field_name("operator"))
        left, lt = self.expr(node.child_by_field_name("left"))
        right, rt = self.expr(node.child_by_field_name("right"))
        lt, rt = prim(lt), prim(rt)
        if op in COMPARISON_OPS:
            return f"{left} {op} {right}", "boolean"
        if op == "+" and "String" in (lt, rt):
            return f"{self.as_string(left, lt)} + {self.as_string(right, rt)}", "String"
        if op in ("&", "|", "^") and lt == "boolean":
            return f"{left} {op} {right}", "boolean"
        if op == ">>>":
            wide = lt == "long"
            return (f"({'long' if wide else 'int'})((({'ulong' if wide else 'uint'})({left})) >> {right})",
                    "long" if wide else "int")
        if op in ("<<", ">>"):
            return f"{left} {op} {right}", "long" if lt == "long" else "int"
        rank = max(NUMERIC_RANK.get(lt or "", 0), NUMERIC_RANK.get(rt or "", 0))
        if op in "+-*" and _CONST_OVERFLOW.search(f"{left} {right}"):
            return f"unchecked({left} {op} {right})", RANK_TYPE.get(rank)
        return f"{left} {op} {right}", RANK_TYPE.get(rank)

    def as_string(self, text: str, java_type: str | None) -> str:
        """How Java would print a value in a string concatenation (true, [1, 2])."""
        if java_type == "boolean":
            return f'({text} ? "true" : "false")'
        kind = self.table["kinds"].get(self.owner_of(java_type) or "")
        entry = self.table["methods"].get(kind or "", {}).get("toString/0")
        return fill(entry["cs"], {"0": text}) if entry and kind != "String" else text

    def _unary(self, node: Node, expected: str | None) -> Typed:
        op = self.text(node.child_by_field_name("operator"))
        operand, ty = self.expr(node.child_by_field_name("operand"))
        if op == "!":
            return f"!{operand}", "boolean"
        ty = prim(ty)
        return f"{op}{operand}", "int" if ty in ("char", "short", "byte") else ty

    def _update(self, node: Node, expected: str | None) -> Typed:
        operand = node.named_children[0]
        text, ty = self.expr(operand)
        return (text + self.text(node)[len(self.text(operand)):].strip() if node.children[0] == operand
                else self.text(node)[: -len(self.text(operand))].strip() + text), ty

    def _assign(self, node: Node, expected: str | None) -> Typed:
        op = self.text(node.child_by_field_name("operator"))
        left, lt = self.expr(node.child_by_field_name("left"))
        right, rt = self.expr(node.child_by_field_name("right"), lt)
        if op == "=":
            value = self.coerce(right, rt, lt)
            if node.child_by_field_name("left").type == "identifier" and \
                    self.text(node.child_by_field_name("left")) in getattr(self, "format_locals", ()):
                value = as_net_format(value)
            port = self._own_field_type(node.child_by_field_name("left"))
            if port and lt and compatible(self.cs_type(lt), port):   # the port's field: uint[] where Java's int[]
                value = retyped(value, self.cs_type(lt), port)
            return f"{left} = {value}", lt
        if op == ">>>=":
            wide = prim(lt) == "long"
            return (f"{left} = ({'long' if wide else 'int'})((({'ulong' if wide else 'uint'})({left})) >> {right})",
                    lt)
        if prim(lt) in ("char", "byte", "short"):
            return f"{left} = ({prim(lt)})({left} {op[:-1]} {right})", lt
        if op == "+=" and lt == "String":
            right = self.as_string(right, prim(rt))
        return f"{left} {op} {right}", lt

    def _own_field_type(self, node: Node) -> str | None:
        """The C# type the port declares for the class's own field `node` names (`x` or `this.x`)."""
        if node.type == "field_access" and self.text(node.child_by_field_name("object")) == "this":
            name = self.text(node.child_by_field_name("field"))
        elif node.type == "identifier" and self.lookup(self.text(node)) is None:
            name = self.text(node)
        else:
            return None
        own = getattr(self.r, "_type", None)
        info = own(None) if own is not None else None
        return info.fields.get(self.r.field_name(None, name)) if info is not None else None

    def _ternary(self, node: Node, expected: str | None) -> Typed:
        cond = self.ex(node.child_by_field_name("condition"))
        a, at = self.expr(node.child_by_field_name("consequence"), expected)
        b, bt = self.expr(node.child_by_field_name("alternative"), expected)
        return f"{cond} ? {a} : {b}", at or bt

    def _instanceof(self, node: Node, expected: str | None) -> Typed:
        left = self.ex(node.child_by_field_name("left"))
        java_type = self.text(node.child_by_field_name("right"))
        binding = node.child_by_field_name("name")
        cs = self.cs_type(java_type)
        if binding is not None:
            self.declare(self.text(binding), java_type, f"(({cs})({left}))")
        return f"{left} is {cs}", "boolean"

    def _cast(self, node: Node, expected: str | None) -> Typed:
        java_type = self.text(node.child_by_field_name("type"))
        value = self.ex(node.child_by_field_name("value"))
        if value[:1] in "-+":
            value = f"({value})"
        cast = f"({self.cs_type(java_type)}){value}"
        # C# rejects a constant cast out of range ((byte)(-1): CS0221); Java wraps it
        return (f"unchecked({cast})" if out_of_range(self.cs_type(java_type), value) else cast), java_type

    def _paren(self, node: Node, expected: str | None) -> Typed:
        text, ty = self.expr(node.named_children[0], expected)
        return f"({text})", ty

    def _switch_value(self, node: Node, expected: str | None) -> Typed:
        """A Java 14 switch expression with `case X -> value;` rules -> nested conditionals (C# 6)."""
        subject, subject_type = self.expr(node.child_by_field_name("condition").named_children[0])
        enum_owner = self.owner_of(subject_type) if prim(subject_type) not in (
            None, "int", "char", "String", "long", "short", "byte") else None
        branches: list[tuple[list[str], str]] = []
        default, result_type = None, None
        for rule in node.child_by_field_name("body").named_children:
            parts = [c for c in rule.named_children if c.type != "switch_label"]
            label = next((c for c in rule.named_children if c.type == "switch_label"), None)
            if rule.type != "switch_rule" or len(parts) != 1 or parts[0].type != "expression_statement" \
                    or label is None:
                return f"/* untranslated switch expression */ {self.text(node)}", expected
            value, ty = self.expr(parts[0].named_children[0], expected)
            result_type = result_type or ty
            if not label.named_children:
                default = value
                continue
            enum_owner = enum_owner or self.label_enum(label.named_children)
            tests = [f"{subject} == {self.case_constant(case, enum_owner)}" for case in label.named_children]
            branches.append((tests, value))
        if default is None and branches:
            default = branches.pop()[1]
        text = default or "default(object)"
        for tests, value in reversed(branches):
            cond = " || ".join(tests)
            text = f"({cond}) ? {value} : {text}" if len(tests) > 1 else f"{cond} ? {value} : {text}"
        return f"({text})", result_type
