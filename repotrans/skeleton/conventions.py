"""How the existing port writes what Java wrote, measured from the index and the mapping.

Every habit is a count over the type and member pairs the mapping already aligned, so a skeleton
for a missing Java type follows the port rather than a fixed house style. A habit with no evidence
in the port falls back to the C# default and says so (`evidence == 0`).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from repotrans.mapping.typenames import name_table, parse_type
from repotrans.translator.cs_types import jdk_table

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping

GETTER = re.compile(r"^(get|is|has)[A-Z]")
SETTER = re.compile(r"^set[A-Z]")
LITERAL = re.compile(r'^(-?[\d.]+[lLfFdD]?|0[xX][\da-fA-F]+[lL]?|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])+\'|true|false)$')
COLLECTIONS = ("List", "Map", "Set", "Collection", "Iterable", "Iterator", "Queue", "Deque")


@dataclass
class Habit:
    """One yes/no habit: how often the port did it when it could have."""
    yes: int = 0
    no: int = 0

    @property
    def evidence(self) -> int:
        return self.yes + self.no

    def holds(self, default: bool) -> bool:
        return default if self.evidence == 0 else self.yes * 2 > self.evidence

    def render(self) -> str:
        return f"{self.yes}/{self.evidence}" if self.evidence else "no evidence"


@dataclass
class Conventions:
    """The port's habits (see `learn`); `holds()` of each gives the choice a skeleton makes."""
    getters_as_properties: Habit = field(default_factory=Habit)
    setters_as_properties: Habit = field(default_factory=Habit)
    is_prefix_kept: Habit = field(default_factory=Habit)           # isFoo() -> IsFoo (not Foo)
    interface_prefix: Habit = field(default_factory=Habit)         # Foo -> IFoo
    pascal_methods: Habit = field(default_factory=Habit)
    fields_renamed: Habit = field(default_factory=Habit)           # field foo -> Foo
    package_private_internal: Habit = field(default_factory=Habit)  # Java default access -> internal
    final_class_sealed: Habit = field(default_factory=Habit)
    final_field_readonly: Habit = field(default_factory=Habit)
    constants_const: Habit = field(default_factory=Habit)          # static final literal -> const
    overridden_virtual: Habit = field(default_factory=Habit)       # a Java method subclasses override
    plain_virtual: Habit = field(default_factory=Habit)            # one they do not
    enum_body_as_class: Habit = field(default_factory=Habit)       # a Java enum with members -> a C# class
    nested_kept: Habit = field(default_factory=Habit)              # a nested Java type stays nested
    get_as_indexer: Habit = field(default_factory=Habit)           # get(i) / set(i, v) -> this[i]
    collections: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    enum_members: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))   # name -> "kind Name"
    jdk_types: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))   # a JDK type the static
                                        # table lacks (InputStream) -> the C# types the port declares for it (Stream)
    type_usings: dict[str, set[str]] = field(default_factory=dict)   # such a C# type -> the System namespaces
                                                                     # every port file declaring it imports

    def port_types(self) -> dict[str, str]:
        """Java type -> the C# type the port most often declares where Java declares it (JDK types only)."""
        return {java: seen.most_common(1)[0][0] for java, seen in self.jdk_types.items()}

    def enum_member(self, java_name: str) -> tuple[str, str]:
        """(kind, C# name) for an implicit Java enum member (name, ordinal, values, valueOf) in the port's
        class-shaped enums; a method named by the method habit when the port shows none."""
        seen = self.enum_members.get(java_name.lower())
        if seen:
            kind, name = seen.most_common(1)[0][0].split(" ", 1)
            return kind, name
        return "method", java_name[:1].upper() + java_name[1:] if self.pascal_methods.holds(True) else java_name

    def collection(self, java_base: str, default: str) -> str:
        """The C# type the port writes for a Java collection interface (List -> IList or List)."""
        seen = self.collections.get(java_base)
        return seen.most_common(1)[0][0] if seen else default

    def render(self) -> str:
        lines = ["conventions learned from the port (yes/cases):"]
        for name, value in self.__dict__.items():
            if isinstance(value, Habit):
                lines.append(f"  {name.replace('_', ' ')}: {value.render()}"
                             f" -> {'yes' if value.holds(False) else 'no'}")
        for member, seen in sorted(self.enum_members.items()):
            lines.append(f"  enum {member}() -> " + ", ".join(f"{cs} {n}" for cs, n in seen.most_common()))
        for base, seen in sorted({**self.collections, **self.jdk_types}.items()):
            lines.append(f"  java {base} -> " + ", ".join(f"{cs} {n}" for cs, n in seen.most_common()))
        return "\n".join(lines)


def learn(index: "Index", mapping: "Mapping") -> Conventions:
    """Count the port's habits over every aligned type and member pair."""
    conv = Conventions()
    by_id = {t.id: t for t in index.types("source") + index.types("target")}
    known = _known_java_types(index)
    usings = {f.path: {i.name for i in f.imports if not i.static and i.alias is None and i.name.startswith("System")}
              for f in index.files("target")}
    overridden = index.overridden_methods("source")
    for tm in mapping.type_matches:
        java, cs = by_id.get(tm.source_id), by_id.get(tm.target_id)
        if java is None or cs is None:
            continue
        if java.kind == "interface":
            _count(conv.interface_prefix, cs.name == "I" + java.name, cs.name in (java.name, "I" + java.name))
        if java.kind == "enum":
            has_body = bool(index.methods(java.id)) or any("static" not in f.modifiers for f in index.fields(java.id))
            if has_body:
                _count(conv.enum_body_as_class, cs.kind == "class", cs.kind in ("class", "enum", "struct"))
                for m in index.methods(cs.id) if cs.kind == "class" else []:
                    if m.name.lower() in ("name", "ordinal", "values", "valueof") and len(m.params) <= 1:
                        conv.enum_members[m.name.lower()][f"{m.kind} {m.name}"] += 1
        if java.kind == "class":
            _count(conv.final_class_sealed, "sealed" in cs.modifiers or "static" in cs.modifiers,
                   "final" in java.modifiers and "abstract" not in java.modifiers)
        if not ({"public", "protected", "private"} & set(java.modifiers)) and java.outer_id is None:
            _count(conv.package_private_internal, "internal" in cs.modifiers or "public" not in cs.modifiers, True)
        if java.outer_id is not None:
            _count(conv.nested_kept, cs.outer_id is not None, True)
        for jt, ct in _learn_fields(conv, index, java.id, cs.id):
            _learn_type(conv, known, jt, ct, usings.get(cs.path, set()))
    for mm in mapping.method_matches:
        java, cs = index.method(mm.source_id), index.method(mm.target_id)
        if java is None or cs is None or java.kind == "constructor":
            continue
        if java.name in name_table().indexer_getters and java.params and java.return_type not in (None, "void"):
            _count(conv.get_as_indexer, cs.kind == "indexer", True)
        if GETTER.match(java.name) and not java.params and java.return_type not in (None, "void"):
            _count(conv.getters_as_properties, cs.kind == "property", True)
            if java.name.startswith("is") and cs.kind == "property":
                _count(conv.is_prefix_kept, cs.name.startswith("Is"), True)
        elif SETTER.match(java.name) and len(java.params) == 1:
            _count(conv.setters_as_properties, cs.kind == "property", True)
        elif cs.kind == "method":
            _count(conv.pascal_methods, cs.name == java.name[:1].upper() + java.name[1:], cs.name.lower() == java.name.lower())
        owner = by_id.get(java.type_id)
        if cs.kind == "method" and _overridable(java, owner):
            virtual = bool({"virtual", "abstract", "override"} & set(cs.modifiers))
            _count(conv.overridden_virtual if java.id in overridden else conv.plain_virtual, virtual, True)
        pairs = [(p.type, q.type) for p, q in zip(java.params, cs.params)] if len(java.params) == len(cs.params) else []
        for jt, ct in pairs + [(java.return_type, cs.return_type)]:
            _learn_collection(conv, jt, ct)
            _learn_type(conv, known, jt, ct, usings.get(cs.path, set()))
    return conv


def _overridable(java, owner) -> bool:
    """A Java instance method a subclass could override (not of Object, not in a final class)."""
    return owner is not None and owner.kind == "class" and "final" not in owner.modifiers \
        and not {"static", "private", "final", "abstract"} & set(java.modifiers) \
        and java.name not in ("toString", "equals", "hashCode")


def _count(habit: Habit, yes: bool, applies: bool) -> None:
    if applies:
        if yes:
            habit.yes += 1
        else:
            habit.no += 1


def _learn_fields(conv: Conventions, index: "Index", java_id: str, cs_id: str) -> list[tuple[str, str]]:
    """Count the field habits of one type pair; (Java type, C# type) of each aligned field."""
    pairs = []
    cs_fields = {f.name: f for f in index.fields(cs_id)}
    lowered = {name.lower().lstrip("_"): f for name, f in cs_fields.items()}
    for f in index.fields(java_id):
        cs = cs_fields.get(f.name)
        renamed = cs is None and f.name[:1].upper() + f.name[1:] in cs_fields
        if cs is None:
            cs = cs_fields.get(f.name[:1].upper() + f.name[1:]) or lowered.get(f.name.lower())
        if cs is None:
            continue
        pairs.append((f.type, cs.type))
        _count(conv.fields_renamed, renamed, True)
        if "final" in f.modifiers and "static" in f.modifiers and f.initializer and LITERAL.match(f.initializer.strip()):
            _count(conv.constants_const, "const" in cs.modifiers, True)
        elif "final" in f.modifiers and "static" not in f.modifiers:
            _count(conv.final_field_readonly, "readonly" in cs.modifiers, True)
    return pairs


def _learn_collection(conv: Conventions, java_type: str | None, cs_type: str | None) -> None:
    if not java_type or not cs_type:
        return
    jt, ct = parse_type(java_type), parse_type(cs_type)
    if jt.base in COLLECTIONS and not jt.dims and not ct.dims:
        conv.collections[jt.base][ct.base] += 1


def _known_java_types(index: "Index") -> frozenset[str]:
    """Java type names whose C# name is known without the port's declarations: the project's own types and
    type parameters, and what the static JDK table translates."""
    table = jdk_table()
    params = {p.split()[0] for t in index.types("source") for p in t.type_params if p.split()} | \
        {p.split()[0] for m in index.all_methods("source") for p in m.type_params if p.split()}
    return frozenset({t.name for t in index.types("source")} | params | set(table["types"]) | set(table["raw_types"])
                     | set(table["functional"]))


def _learn_type(conv: Conventions, known: frozenset[str], java_type: str | None, cs_type: str | None,
                usings: set[str]) -> None:
    """A plain JDK type the static table lacks (`InputStream`, `ByteBuffer`) declared where the port declares
    `cs_type` (`Stream`, `byte[]`): counted, with the System namespaces of the port's file."""
    if not java_type or not cs_type:
        return
    jt = parse_type(java_type)
    if jt.args or jt.dims or not jt.base[:1].isupper() or jt.base in known or jt.qualifier:
        return
    cs = cs_type.strip()
    conv.jdk_types[jt.base][cs] += 1
    base = parse_type(cs).base
    conv.type_usings[base] = conv.type_usings[base] & usings if base in conv.type_usings else set(usings)
