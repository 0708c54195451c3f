"""Which C# field, constant or property a Java field became, inside the matched type pairs, when the port
spelled it otherwise than its naming conventions would (`SEPARATOR` -> `PathSeparator`).

A Java field whose name the conventions already find (the same name up to case, underscores and an
`m_`/`_` prefix, its type agreeing) is left to them; a same-named member of a plainly different type is
no twin (Java's Map `accounts` is the port's `accountsByCode`, not its list property `Accounts`).
Another is paired with the one C# field or property of its type's counterpart that no other Java field
claims, on two signals, never one: the same constant value (a
literal initializer that is not 0/1/true/..., both static or both not), one name's words within the other's
(`SEPARATOR` in `PathSeparator`; one shared word such as `type` says nothing), the same type
through the type map. Each pairing says which.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from repotrans.index.model import Field, Method
from repotrans.index.typename import simple_name
from repotrans.mapping.evidence import dice, name_words
from repotrans.mapping.typenames import compat, name_table, parse_type

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.matches import TypeMatch

_TRIVIAL = frozenset({"0", "1", "-1", "2", "true", "false", '""', "0.0", "1.0"})     # values too common to tell
_LITERAL = re.compile(r'^\s*(-?\d[\w.]*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|true|false)\s*$')


class TypePairs(Protocol):
    """What renamed_fields reads of a mapping: its type pairs."""
    type_matches: list["TypeMatch"]


@dataclass(frozen=True)
class FieldMatch:
    source: Field
    target_name: str
    evidence: tuple[str, ...]


def field_key(name: str) -> str:
    """A field's name as the naming conventions compare it: case, underscores and an `m_`/`_` prefix aside
    (`instance` is the port's `instance_`, `_instance`, `m_instance` or `Instance`)."""
    return re.sub(r"^(m_|_)", "", name).replace("_", "").lower()


def _literal(initializer: str | None) -> str | None:
    """A literal initializer, normalised (`10L` -> `10`, `1.5f` -> `1.5`), else None."""
    if not initializer:
        return None
    found = _LITERAL.match(initializer)
    if found is None:
        return None
    text = found.group(1)
    return text.rstrip("lLfFdDmMuU") if text[0] in "-0123456789" else text


def _words(name: str) -> frozenset[str]:
    """Name words of a field, constants included (`MAX_CODE_SIZE` -> max, code, size)."""
    return name_words(name.title().replace("_", "") if name.isupper() else name)


def _evidence(jf: Field, name: str, ctype: str | None, cvalue: str | None, static: bool,
              project: dict[str, set[str]]) -> tuple[str, ...] | None:
    """The signals that pair a Java field with a C# field or property, or None when fewer than two."""
    signals = []
    value = _literal(jf.initializer)
    if value is not None and value not in _TRIVIAL and value == cvalue and ("static" in jf.modifiers) == static:
        signals.append(f"same constant value {value}")
    jw, cw = _words(jf.name), _words(name)
    if jw and cw and (jw <= cw or cw <= jw):
        signals.append(f"name words {dice(jw, cw):.2f}, one name's words within the other's")
    if ctype and compat(parse_type(jf.type), parse_type(ctype), project, frozenset(), frozenset()) > 0:
        signals.append("same type")
    return tuple(signals) if len(signals) >= 2 else None


def _type_agrees(java_type: str, cs_type: str | None, project: dict[str, set[str]]) -> bool:
    """The types agree through the type map, or the Java type is one the map cannot judge."""
    if not cs_type:
        return True
    jt = parse_type(java_type)
    if compat(jt, parse_type(cs_type), project, frozenset(), frozenset()) > 0:
        return True
    return jt.base not in project and jt.base not in name_table().types


def match_fields(java: list[Field], cs_fields: list[Field], cs_members: list[Method],
                 project: dict[str, set[str]]) -> list[FieldMatch]:
    """The Java fields of one type pair that the port renamed, each with its one C# counterpart."""
    targets = [(f.name, f.type, _literal(f.initializer), "static" in f.modifiers or "const" in f.modifiers)
               for f in cs_fields]
    targets += [(m.name, m.return_type, None, "static" in m.modifiers) for m in cs_members if m.kind == "property"]
    taken = {field_key(f.name) for f in java}
    proposals: dict[str, list[tuple[Field, tuple[str, ...]]]] = {}
    for jf in java:
        same = [ctype for name, ctype, _, _ in targets if field_key(name) == field_key(jf.name)]
        if any(_type_agrees(jf.type, ctype, project) for ctype in same):
            continue                # the convention finds it (a same-named member of another type is no twin:
                                    # Ledger's Map `accounts` is the port's accountsByCode, not its list Accounts)
        fits = [(name, ev) for name, ctype, cvalue, static in targets if field_key(name) not in taken
                and (ev := _evidence(jf, name, ctype, cvalue, static, project)) is not None]
        if len(fits) == 1:
            proposals.setdefault(fits[0][0], []).append((jf, fits[0][1]))
    return [FieldMatch(claims[0][0], name, claims[0][1]) for name, claims in proposals.items() if len(claims) == 1]


def renamed_fields(index: "Index", mapping: TypePairs) -> dict[str, str]:
    """"JavaClass.FIELD" -> the C# field or property the port renamed it to, over every matched type pair
    (the resolver's renames for fields)."""
    project: dict[str, set[str]] = {}
    for tm in mapping.type_matches:
        project.setdefault(simple_name(tm.source_id), set()).add(simple_name(tm.target_id))
    out: dict[str, str] = {}
    for tm in mapping.type_matches:
        java = index.fields(tm.source_id)
        if not java:
            continue
        for fm in match_fields(java, index.fields(tm.target_id), index.methods(tm.target_id), project):
            out[f"{simple_name(tm.source_id)}.{fm.source.name}"] = fm.target_name
    return out
