"""A Java type declaration (tree-sitter node) -> a C# skeleton: declarations in the port's
conventions, every method body a placeholder for the batch to fill.

What a skeleton needs beyond signatures is translated here with the builtin policy's translators:
field initial values, enum constants' arguments, `super(...)`/`this(...)` calls and static
initialisers. Each generated member keeps its Java origin (for compile errors, see check.py).
Members written with bodies (setters, enum constants with bodies, interface defaults) are in
written.py; the line type and the Java node readers in lines.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from repotrans.translator.base_calls import Delegation
from repotrans.translator.java2cs import MethodTranslator
from repotrans.translator.cs_types import split_type
from repotrans.translator.resolver import ConventionResolver
from repotrans.skeleton.base_calls import BaseFallback, fallback
from repotrans.skeleton.conventions import GETTER, LITERAL, SETTER, Conventions
from repotrans.skeleton.lines import (ACCESS, CONST_TYPES, HIDES_OBJECT, INDENT, OBJECT_MEMBERS, PLACEHOLDER, Line,
                                      cs_ident, modifiers_of, node_text, params_of, prop_name, trivial_getter)
from repotrans.skeleton.written import WrittenMembers


@dataclass(frozen=True)
class Inherited:
    """A member a C# base declares virtual or abstract, which a Java method of the subclass overrides."""
    returns: str | None            # its C# return type (C# has no covariant returns)
    prop: str | None = None        # the base declares it as a property of this name: the override is one too


@dataclass
class TypeContext:
    """What rendering one Java file needs to know about the port."""
    conventions: Conventions
    resolver: ConventionResolver
    overrides: dict[str, dict[tuple[str, int], Inherited]]   # Java type path -> (method, arity) its C# base
                                                             # declares virtual/abstract -> that member
    overridden: set[tuple[str, str, int]] = field(default_factory=set)   # (Java type, method, arity) subclasses override
    notes: list[str] = field(default_factory=list)
    defaults: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # Java class id -> (interface,
                                        # default method text) of the interfaces it names (C# interfaces hold no bodies)
    delegations: dict[str, dict[int, Delegation]] = field(default_factory=dict)   # Java type -> its superclass's
                                        # constructors that begin with this(...), by arity (base_calls)
    fallbacks: dict[str, BaseFallback] = field(default_factory=dict)    # constructor origin -> the base call it
                                        # takes when the port's base cannot take Java's (CS1729)


class SkeletonResolver(ConventionResolver):
    """Project types by their C# names, collection interfaces as the port writes them, methods named
    as the port names them (for the expressions a skeleton translates)."""

    def __init__(self, usings: frozenset[str], project_types: dict[str, str], conv: Conventions,
                 qualified: dict[str, str] | None = None):
        collections = {"List": conv.collection("List", "IList"), "Map": conv.collection("Map", "IDictionary"),
                       "Set": conv.collection("Set", "ISet"), "Collection": conv.collection("Collection", "ICollection")}
        super().__init__(usings, {**collections, **project_types})
        self.pascal = conv.pascal_methods.holds(True)
        self.qualified = dict(qualified or {})     # C# names a namespace segment of the file shadows

    def type_name(self, java_type: str) -> str:
        text = super().type_name(java_type)
        if not self.qualified:
            return text
        return re.sub(r"(?<![\w.])(" + "|".join(map(re.escape, self.qualified)) + r")\b(?!\s*\.)",
                      lambda m: self.qualified[m.group(1)], text)

    def method_name(self, owner: str | None, name: str, argc: int) -> str:
        return name[:1].upper() + name[1:] if self.pascal else name


def _implements_iterable(method: Node) -> bool:
    """Whether the class declaring `method` names java.lang.Iterable among its interfaces."""
    decl = method.parent.parent if method.parent is not None else None
    if decl is None or decl.type != "class_declaration":
        return False
    return any(child.type == "super_interfaces" and any(split_type(node_text(t))[0] in ("Iterable", "java.lang.Iterable")
                                                        for t in child.named_children[0].named_children)
               for child in decl.children)


def cs_type_name(java_name: str, kind: str, conv: Conventions) -> str:
    """The C# name for a Java type the port has not got yet."""
    if kind == "interface" and conv.interface_prefix.holds(False) and not re.match(r"I[A-Z]", java_name):
        return "I" + java_name
    return java_name


class TypeRenderer(WrittenMembers):
    """Render one top-level Java type declaration (with its nested types)."""

    def __init__(self, ctx: TypeContext, owner: str):
        self.ctx = ctx
        self.conv = ctx.conventions
        self.owner = owner                  # Java qualified name of the top-level type, for origins
        self.sealed: list[bool] = []        # per enclosing type: no `virtual` members in a sealed one
        self.constant_overrides: list[set] = []   # per enclosing enum: (method, arity) its constants override
        self.nested: list[bool] = []        # per type whose members are rendered: is it a nested type

    # ---- types ---------------------------------------------------------------------------
    def type_decl(self, node: Node, depth: int = 0, outer: str = "") -> list[Line]:
        kind = {"class_declaration": "class", "interface_declaration": "interface",
                "enum_declaration": "enum", "record_declaration": "class"}.get(node.type)
        name = node_text(node.child_by_field_name("name"))
        java_path = f"{outer}.{name}" if outer else name
        if kind is None:
            self.ctx.notes.append(f"{java_path}: {node.type} not generated")
            return []
        cs_name = cs_type_name(name, kind, self.conv)
        mods = modifiers_of(node)
        tr = MethodTranslator(self.ctx.resolver, b"")
        tparams, constraints = tr._type_params(node.child_by_field_name("type_parameters"))
        bases = self._bases(node, tr)
        body = node.child_by_field_name("body")
        if kind == "enum" and (self._enum_has_members(body) and self.conv.enum_body_as_class.holds(True)):
            return self._enum_class(node, cs_name, mods, bases, depth, java_path)
        words = [self._access(mods, depth > 0)]
        sealed = kind == "class" and "final" in mods and "abstract" not in mods and self.conv.final_class_sealed.holds(True)
        if kind == "class":
            if "abstract" in mods:
                words.append("abstract")
            elif sealed:
                words.append("sealed")
        header = " ".join(words + [kind, cs_name]) + tparams
        if bases and kind != "enum":
            header += " : " + ", ".join(bases)
        lines = [Line(header + constraints, java_path, "type"), Line("{")]
        if kind == "enum":
            constants = [node_text(c.child_by_field_name("name")) for c in body.named_children
                         if c.type == "enum_constant"]
            lines += [Line(INDENT + ", ".join(constants), java_path)]
        else:
            self.sealed.append(sealed or "final" in mods)
            lines += self.members(body, cs_name, kind, depth, java_path)
            if kind == "class":
                lines += self._defaults(node, java_path)
                lines += self._enumerator_bridge(node, bases, java_path, lines)
            self.sealed.pop()
        lines.append(Line("}"))
        return lines

    def _bases(self, node: Node, tr: MethodTranslator) -> list[str]:
        out = []
        sup = node.child_by_field_name("superclass")
        if sup is not None:
            out.append(tr.cs_type(node_text(sup.named_children[0])))
        for child in node.children:
            if child.type in ("super_interfaces", "extends_interfaces"):
                for t in child.named_children[0].named_children:
                    cs = tr.cs_type(node_text(t))
                    if split_type(node_text(t))[0] == "Comparable" and not cs.startswith("I"):
                        cs = "I" + cs
                    out.append(cs)
        return out

    def _access(self, mods: list[str], nested: bool) -> str:
        """The member's C# access. A nested type's private member is internal: Java lets the enclosing type
        reach it (`new Percentiles(...)` in HistogramData, its constructor private), C# does not."""
        if "private" in mods and self.nested and self.nested[-1]:
            return "internal"
        for a in ACCESS:
            if a in mods:
                return a
        return "internal" if self.conv.package_private_internal.holds(True) else "public"

    def _enum_has_members(self, body: Node) -> bool:
        decls = next((c for c in body.named_children if c.type == "enum_body_declarations"), None)
        args = any(c.child_by_field_name("arguments") is not None for c in body.named_children if c.type == "enum_constant")
        return args or (decls is not None and bool(decls.named_children))

    # ---- members -------------------------------------------------------------------------
    def members(self, body: Node, cs_name: str, kind: str, depth: int, java_type: str,
                 enum: bool = False) -> list[Line]:
        decls = body.named_children
        if body.type == "enum_body":
            inner = next((c for c in decls if c.type == "enum_body_declarations"), None)
            decls = inner.named_children if inner is not None else []
        self.nested.append(depth > 0)
        try:
            return self._members(decls, cs_name, kind, depth, java_type, enum)
        finally:
            self.nested.pop()

    def _members(self, decls: list[Node], cs_name: str, kind: str, depth: int, java_type: str,
                 enum: bool) -> list[Line]:
        methods = [d for d in decls if d.type == "method_declaration"]
        props = self._properties(methods, cs_name, kind)
        indexers = {id(m) for m in methods if self._is_indexer_getter(m)}
        out: list[Line] = []
        done_props: set[str] = set()
        for d in decls:
            if d.type == "field_declaration" or d.type == "constant_declaration":
                out += self._field(d, kind, java_type, enum)
            elif d.type == "method_declaration" and id(d) in indexers:
                out += self._indexer(d, kind, java_type, self._indexer_setter(d, methods))
            elif d.type == "method_declaration":
                prop = props.get(id(d))
                if prop is not None:
                    if prop[0] not in done_props:
                        done_props.add(prop[0])
                        out += self._property(prop, kind, java_type)
                    continue
                out += self._method(d, kind, java_type)
            elif d.type == "constructor_declaration":
                out += self._constructor(d, cs_name, java_type, enum)
            elif d.type in ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration"):
                out += [Line(INDENT + line.text, line.origin) for line in self.type_decl(d, depth + 1, java_type)]
            elif d.type == "static_initializer":
                out += self._static_init(d, cs_name, java_type)
            elif d.type not in ("comment", "line_comment", "block_comment", ";"):
                self.ctx.notes.append(f"{java_type}: {d.type} not generated")
        return out

    def _field(self, node: Node, kind: str, java_type: str, enum: bool) -> list[Line]:
        mods = modifiers_of(node)
        jtype = node_text(node.child_by_field_name("type"))
        tr = MethodTranslator(self.ctx.resolver, b"")
        tr.static_context = "static" in mods
        out = []
        for decl in node.children_by_field_name("declarator"):
            name = node_text(decl.child_by_field_name("name"))
            dims = node_text(decl.child_by_field_name("dimensions"))
            full_type = jtype + dims
            cs_type = tr.cs_type(full_type)
            value = decl.child_by_field_name("value")
            origin = f"{java_type}.{name}"
            if kind == "interface":
                self.ctx.notes.append(f"{origin}: interface constant not generated (C# interfaces hold no fields)")
                continue
            words = [self._access(mods, True)]
            init = ""
            if value is not None:
                try:
                    init = " = " + tr.ex(value, full_type)
                except Exception as exc:     # noqa: BLE001 - an untranslatable initializer is noted, not fatal
                    self.ctx.notes.append(f"{origin}: initial value not translated ({type(exc).__name__})")
                    init = ""
            if "static" in mods and "final" in mods and value is not None and jtype in CONST_TYPES and not dims \
                    and LITERAL.match(node_text(value).strip()) and self.conv.constants_const.holds(True):
                words.append("const")
            else:
                if "static" in mods:
                    words.append("static")
                if "final" in mods and self.conv.final_field_readonly.holds(True):
                    words.append("readonly")
            out.append(Line(INDENT + " ".join(words + [cs_type, cs_ident(name)]) + init + ";", origin))
        return out

    def _properties(self, methods: list[Node], cs_name: str, kind: str) -> dict[int, tuple]:
        """Getter/setter nodes that become one C# property (when the port does so): id(node) -> spec."""
        if not self.conv.getters_as_properties.holds(True):
            return {}
        getters: dict[str, Node] = {}
        setters: dict[str, Node] = {}
        names = {node_text(m.child_by_field_name("name")) for m in methods}
        for m in methods:
            name = node_text(m.child_by_field_name("name"))
            params = params_of(m)
            mods = modifiers_of(m)
            if "static" in mods or m.child_by_field_name("type_parameters") is not None:
                continue
            rtype = node_text(m.child_by_field_name("type"))
            if GETTER.match(name) and not params and rtype != "void":
                getters[prop_name(name, self.conv)] = m
            elif SETTER.match(name) and len(params) == 1 and rtype == "void" \
                    and self.conv.setters_as_properties.holds(True):
                setters[name[3:]] = m
        out = {}
        for prop, g in getters.items():
            if prop == cs_name or prop in names:
                continue
            s = setters.get(prop)
            if s is not None and params_of(s)[0][0] != node_text(g.child_by_field_name("type")):
                s = None
            out[id(g)] = (prop, g, s)
            if s is not None:
                out[id(s)] = (prop, g, s)
        return out

    def _is_indexer_getter(self, node: Node) -> bool:
        """`T get(int i, ...)` where the port writes such getters as indexers."""
        return self.conv.get_as_indexer.holds(False) and node_text(node.child_by_field_name("name")) == "get" \
            and bool(params_of(node)) and node_text(node.child_by_field_name("type")) != "void" \
            and "static" not in modifiers_of(node)

    def _indexer(self, node: Node, kind: str, java_type: str, setter: Node | None = None) -> list[Line]:
        """`public T this[int i]` from a Java `get(int i)`: batch fills the getter; the setter is the
        Java set(<same indices>, value) translated now (batch translates an indexer from its getter only),
        else a placeholder (the Java set method is kept too)."""
        tr = MethodTranslator(self.ctx.resolver, b"")
        header = tr.header(node, None)
        params = header[header.index("(") + 1:header.rindex(")")]
        cs_type = tr.cs_type(node_text(node.child_by_field_name("type")))
        origin = f"{java_type}.get({', '.join(t for t, _ in params_of(node))})"
        if kind == "interface":
            return [Line(f"{INDENT}{cs_type} this[{params}] {{ get; }}", origin)]
        words = [self._access(modifiers_of(node), True)] + self._dispatch(node, java_type, len(params_of(node)))
        setter_lines = self._accessor(setter, "set", header) if setter is not None else [f"set {{ {PLACEHOLDER} }}"]
        return [Line(f"{INDENT}{' '.join(words)} {cs_type} this[{params}]", origin), Line(INDENT + "{", origin),
                Line(f"{INDENT * 2}get {{ {PLACEHOLDER} }}", origin)] + \
            [Line(INDENT * 2 + a, origin) for a in setter_lines] + [Line(INDENT + "}", origin)]

    def _property(self, spec: tuple, kind: str, java_type: str) -> list[Line]:
        prop, getter, setter = spec
        tr = MethodTranslator(self.ctx.resolver, b"")
        cs_type = tr.cs_type(node_text(getter.child_by_field_name("type")))
        origin = f"{java_type}.{node_text(getter.child_by_field_name('name'))}()"
        if kind == "interface":
            return [Line(f"{INDENT}{cs_type} {prop} {{ get;{' set;' if setter is not None else ''} }}", origin)]
        mods = modifiers_of(getter)
        words = [self._access(mods, True)] + self._dispatch(getter, java_type, 0)
        if "abstract" in mods:
            return [Line(f"{INDENT}{' '.join(words)} {cs_type} {prop} {{ get;{' set;' if setter else ''} }}", origin)]
        accessors = [f"get {{ {PLACEHOLDER} }}"]
        if setter is not None and trivial_getter(getter):
            # batch translates a property from its Java getter only: a get/set pair is written now
            accessors = self._accessor(getter, "get") + self._accessor(setter, "set")
        elif setter is not None:
            # batch fills the getter (and keeps the accessors it does not write): the setter is written now
            accessors += self._accessor(setter, "set")
        return [Line(f"{INDENT}{' '.join(words)} {cs_type} {prop}", origin), Line(INDENT + "{", origin)] + \
               [Line(INDENT * 2 + a, origin) for a in accessors] + [Line(INDENT + "}", origin)]

    def _dispatch(self, node: Node, java_type: str, arity: int) -> list[str]:
        """`static`, `abstract`, `override` or `virtual` for a method, as the port would write it."""
        mods = modifiers_of(node)
        name = node_text(node.child_by_field_name("name"))
        inherited = self.ctx.overrides.get(java_type, {})
        if "static" in mods:
            return ["static"]
        if "abstract" in mods:
            return ["abstract", "override"] if (name, arity) in inherited else ["abstract"]
        if (name, arity) in inherited:
            return ["override"]
        if self.constant_overrides and (name, arity) in self.constant_overrides[-1]:
            return ["virtual"]
        if "private" in mods or "final" in mods or (self.sealed and self.sealed[-1]):
            return []
        simple = java_type.rsplit(".", 1)[-1]
        if (simple, name, arity) in self.ctx.overridden and self.conv.overridden_virtual.holds(True):
            return ["virtual"]
        if self.conv.plain_virtual.holds(False):
            return ["virtual"]
        return []

    def _method(self, node: Node, kind: str, java_type: str) -> list[Line]:
        mods = modifiers_of(node)
        name = node_text(node.child_by_field_name("name"))
        tr = MethodTranslator(self.ctx.resolver, b"")
        arity = len(params_of(node))
        origin = f"{java_type}.{name}({', '.join(t for t, _ in params_of(node))})"
        try:
            header = tr.header(node, None)
        except Exception as exc:     # noqa: BLE001
            self.ctx.notes.append(f"{origin}: header not translated ({type(exc).__name__})")
            return []
        sig = header[header.index("("):]
        tparams, constraints = tr._type_params(node.child_by_field_name("type_parameters"))
        returns = tr.cs_type(node_text(node.child_by_field_name("type")))
        cs_name = name[:1].upper() + name[1:] if self.conv.pascal_methods.holds(True) else name
        words: list[str]
        if (name, arity) in OBJECT_MEMBERS and (name != "equals" or params_of(node)[0][0] == "Object"):
            returns, cs_name = OBJECT_MEMBERS[(name, arity)]
            words = ["public", "override"]
        elif (name, arity) == ("clone", 0) and kind == "class":
            returns, cs_name, words = "object", "Clone", ["public"]      # ICloneable.Clone
        elif (name, arity) == ("iterator", 0) and kind == "class" and _implements_iterable(node):
            return self._enumerator(node, returns, mods, origin)
        elif kind == "interface":
            words = []
        else:
            words = [self._access(mods, True)] + self._dispatch(node, java_type, arity)
            if (cs_name, arity) in HIDES_OBJECT and "static" not in mods and "override" not in words:
                words.append("new")        # Java's getType() beside object's non-virtual GetType(): C#'s rule
            base = self.ctx.overrides.get(java_type, {}).get((name, arity)) if "override" in words else None
            if base is not None and base.returns:
                returns = base.returns     # C# has no covariant returns
            if base is not None and base.prop and not arity:         # the base's property, overridden as one
                head = f"{INDENT}{' '.join(words)} {returns} {base.prop}"
                if "abstract" in mods:
                    return [Line(head + " { get; }", origin)]
                return [Line(head, origin), Line(INDENT + "{", origin),
                        Line(f"{INDENT * 2}get {{ {PLACEHOLDER} }}", origin), Line(INDENT + "}", origin)]
        cs_name = cs_ident(cs_name)
        head = " ".join(words + [returns, cs_name]) + (tparams if tparams else "") + sig
        if kind == "interface" or "abstract" in mods or (kind == "interface" and node.child_by_field_name("body") is None):
            if kind == "interface" and node.child_by_field_name("body") is not None:
                self.ctx.notes.append(f"{origin}: default method body dropped (C# interface)")
            return [Line(INDENT + head + constraints + ";", origin)]
        return [Line(INDENT + head + constraints, origin), Line(INDENT + "{", origin),
                Line(INDENT * 2 + PLACEHOLDER, origin), Line(INDENT + "}", origin)]

    def _enumerator_bridge(self, node: Node, bases: list[str], origin: str, members: list[Line]) -> list[Line]:
        """A class implementing java.util.Iterator<T> (C#'s IEnumerator<T>, as the JDK table writes it) keeps
        hasNext()/next() and carries the members IEnumerator<T> requires, written over them as ports write
        them (HdrHistogram.NET's AbstractHistogramIterator): MoveNext() advances with next(), Current holds it."""
        java = [split_type(node_text(t))[0] for c in node.children if c.type == "super_interfaces"
                for t in c.named_children[0].named_children]
        element = next((m.group(1) for b in bases for m in [re.fullmatch(r"(?:[\w.]+\.)?IEnumerator<(.+)>", b)] if m),
                       None)
        if element is None or not {"Iterator", "java.util.Iterator"} & set(java):
            return []
        has_next, nxt = ("HasNext", "Next") if self.conv.pascal_methods.holds(True) else ("hasNext", "next")
        if not any(re.search(r"\s" + has_next + r"\s*\(", ln.text) for ln in members) and \
                any(re.search(r"\s" + has_next + r"\s*(\{|$)", ln.text) for ln in members):
            has_next_read = has_next               # the port's conventions made hasNext() a property
        else:
            has_next_read = has_next + "()"
        return [Line(INDENT + text, origin) for text in (
            f"public {element} Current {{ get; private set; }}",
            "object System.Collections.IEnumerator.Current { get { return Current; } }",
            f"public bool MoveNext() {{ if (!{has_next_read}) return false; Current = {nxt}(); return true; }}",
            "public void Reset() { throw new NotSupportedException(); }",
            "public void Dispose() { }")]

    def _enumerator(self, node: Node, returns: str, mods: list[str], origin: str) -> list[Line]:
        """Iterable's `iterator()` in a class that implements it: IEnumerable<T>'s `GetEnumerator()`, public, with
        the non-generic IEnumerable's, which C# requires as well, written to call it (as ports write it)."""
        explicit = Line(f"{INDENT}System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() "
                        "{ return GetEnumerator(); }", origin)
        head = f"{INDENT}public {'abstract ' if 'abstract' in mods else ''}{returns} GetEnumerator()"
        if "abstract" in mods:
            return [Line(head + ";", origin), explicit]
        return [Line(head, origin), Line(INDENT + "{", origin), Line(INDENT * 2 + PLACEHOLDER, origin),
                Line(INDENT + "}", origin), explicit]

    def _constructor(self, node: Node, cs_name: str, java_type: str, enum: bool) -> list[Line]:
        mods = modifiers_of(node)
        tr = MethodTranslator(self.ctx.resolver, b"")
        origin = f"{java_type}.{node_text(node.child_by_field_name('name'))}({', '.join(t for t, _ in params_of(node))})"
        header = tr.header(node, None)
        sig = header[header.index("("):]
        body = node.child_by_field_name("body")
        first = next((c for c in body.named_children if "comment" not in c.type), None) if body is not None else None
        init = ""
        if first is not None and first.type == "explicit_constructor_invocation":
            try:
                tr._s_explicit_constructor_invocation(first)
                init = tr.ctor_init
            except Exception as exc:   # noqa: BLE001
                self.ctx.notes.append(f"{origin}: constructor call not translated ({type(exc).__name__})")
            through = self.ctx.delegations.get(java_type, {}).get(len(first.child_by_field_name("arguments")
                                                                      .named_children))
            if init.startswith(" : base(") and through is not None:
                alternative = fallback(first, through, MethodTranslator(self.ctx.resolver, b""))
                if alternative is not None:
                    self.ctx.fallbacks[origin] = alternative
        access = "private" if enum else self._access(mods, True)
        return [Line(f"{INDENT}{access} {cs_name}{sig}{init}", origin), Line(INDENT + "{", origin),
                Line(INDENT * 2 + PLACEHOLDER, origin), Line(INDENT + "}", origin)]

    def _static_init(self, node: Node, cs_name: str, java_type: str) -> list[Line]:
        tr = MethodTranslator(self.ctx.resolver, b"")
        tr.static_context = True
        origin = f"{java_type}.<static initializer>"
        block = next(c for c in node.named_children if c.type == "block")
        lines = tr.block(block)
        return [Line(f"{INDENT}static {cs_name}()", origin)] + [Line(INDENT + part, origin)
                                                                 for line in lines for part in line.split("\n")]

    # ---- enums with members --------------------------------------------------------------
