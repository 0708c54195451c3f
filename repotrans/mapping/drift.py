"""Signature drift: the C# member a Java method became when the port re-typed it the way real ports do.

A Java method the naming rules find no exact counterpart of is not yet missing: the port may have kept
its name (by the port's convention: PascalCase, an accessor as a property, a word added such as `Utc`)
and changed its types to the C# idiom (data/signature_drifts.json): time as `long` millis, `Date` or
`Calendar` -> `DateTime`/`DateTimeOffset`/`TimeSpan`; an `int` -> an enum (a day of week ->
`DayOfWeek`); a concrete collection -> an abstract one (`LinkedList<T>` -> `ICollection<T>`); an array
-> `IEnumerable<T>`; a boxed type -> a nullable one. A C# method whose added trailing parameters all
have defaults covers the shorter Java overload, and a Java constructor without parameters is the
implicit constructor of a C# type that declares none.

`drifted_counterpart` answers for one Java method against its C# type's members; `drifted_in_port`
finds those members through an index and a mapping (the dry run, parity and --create-missing ask it
before they call a Java member missing).
"""
from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from repotrans.index.model import Method, TypeDecl
from repotrans.index.typename import simple_name
from repotrans.mapping.signatures import Scorer, has_setter, tparams
from repotrans.mapping.evidence import name_words
from repotrans.mapping.typenames import TypeName, compat, java_param_type, name_table, parse_type

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.matches import TypeMatch


class TypePairs(Protocol):
    """What drifted_in_port reads of a mapping: its type pairs."""
    type_matches: list["TypeMatch"]

    def target_type(self, source_type_id: str) -> "TypeMatch | None": ...

DRIFTS_FILE = Path(__file__).parent / "data" / "signature_drifts.json"
NAME_RANKS = ("by the naming convention", "with a word the port added or renamed", "ignoring case")


@dataclass(frozen=True)
class Drift:
    """The C# member a Java method drifted into (None: the implicit constructor C# gives a type that
    declares none), what drifted, and how the name was found."""
    target: Method | None
    drifts: tuple[str, ...]
    name_rank: int = 0          # index into NAME_RANKS

    @property
    def reason(self) -> str:
        return "signature drift: " + "; ".join(self.drifts or ("none",))

    @property
    def only_defaults(self) -> bool:
        """Whether the only drift is C#'s defaulted parameters covering a shorter Java overload."""
        return bool(self.drifts) and all(d.startswith("C# defaults") for d in self.drifts)


@dataclass(frozen=True)
class _Family:
    name: str
    elements: bool              # compare generic arguments / array elements
    java: frozenset[str]
    cs: frozenset[str]


@dataclass(frozen=True)
class _Table:
    families: tuple[_Family, ...]
    integral: frozenset[str]
    cs_enums: frozenset[str]
    suffixes: tuple[str, ...]
    words: dict[str, tuple[str, ...]]           # a name's word -> the .NET words a port writes for it
    conversions: dict[str, str]                 # Number.xValue()'s x -> the port's ToX
    dropped: tuple[str, ...]                    # a name's last word naming a type, which a port drops
    word_pattern: re.Pattern                    # one of `words` as a whole word of a PascalCase name


@lru_cache(maxsize=1)
def drift_table() -> _Table:
    """The drift families and name suffixes, loaded once from data/signature_drifts.json."""
    data = json.loads(DRIFTS_FILE.read_text(encoding="utf-8"))
    families = tuple(_Family(name, f["compare"] == "elements", frozenset(f["java"]), frozenset(f["cs"]))
                     for name, f in data["families"].items())
    return _Table(families, frozenset(data["integral"]), frozenset(data["cs_enums"]),
                  tuple(data["member_added_suffixes"]),
                  {k: tuple(v) for k, v in data["member_word_renames"].items()}, dict(data["number_conversions"]),
                  tuple(data["member_dropped_type_words"]),
                  re.compile(rf"(?<![A-Z])({'|'.join(sorted(data['member_word_renames'], key=len, reverse=True))})"
                             r"(?=[A-Z0-9]|$)"))


def _show(t: TypeName) -> str:
    args = f"<{', '.join(_show(a) for a in t.args)}>" if t.args else ""
    return t.base + args + "[]" * t.dims + ("?" if t.nullable else "")


def _elements(t: TypeName) -> tuple[TypeName, ...]:
    if t.dims:
        return (TypeName(t.base, t.args, t.dims - 1),)
    return t.args


class _Types:
    """Type agreement for one Java method and one C# member: exact through the type map, by a drift,
    or unknown (a Java type the map does not know)."""

    def __init__(self, scorer: Scorer, jm: Method, cm: Method, enums: frozenset[str]):
        self.scorer, self.project = scorer, scorer.project
        self.jtp, self.ctp = tparams(scorer.jt, jm), tparams(scorer.ct, cm)
        self.enums = enums | drift_table().cs_enums

    def fit(self, j: TypeName, c: TypeName, hint: frozenset[str] = frozenset()) -> tuple[str, str] | None:
        """("exact"|"drift"|"unknown", note), or None when the types plainly disagree. `hint`: words
        of the parameter's (or the method's) name, which an int that became one of the port's own
        enums must share with the enum's name or parameter name."""
        if compat(j, c, self.project, self.jtp, self.ctp) > 0:
            return "exact", ""
        note = self.drift(j, c, hint)
        if note:
            return "drift", note
        if j.dims == c.dims and not self._known(j.base):
            return "unknown", ""
        return None

    def _known(self, base: str) -> bool:
        return base in self.project or base in name_table().types or base in self.jtp or \
            any(base in f.java for f in drift_table().families)

    def drift(self, j: TypeName, c: TypeName, hint: frozenset[str] = frozenset()) -> str | None:
        table = drift_table()
        jkeys = {j.base} if not j.dims else {"[]"}
        ckeys = {c.base} if not c.dims else {"[]"}
        for fam in table.families:
            if not (jkeys & fam.java and ckeys & fam.cs):
                continue
            if not fam.elements:
                return f"{_show(j)} -> {_show(c)} ({fam.name})"
            je, ce = _elements(j), _elements(c)
            if not je or not ce or (len(je) == len(ce) and all(self.fit(a, b) for a, b in zip(je, ce))):
                return f"{_show(j)} -> {_show(c)} ({fam.name})"
        if j.base in table.integral and j.dims == c.dims and (
                c.base in table.cs_enums or (c.base in self.enums and hint & name_words(c.base))):
            return f"{_show(j)} -> enum {_show(c)}"
        if j.dims and j.dims == c.dims and self.drift(TypeName(j.base, j.args), TypeName(c.base, c.args)):
            return f"{_show(j)} -> {_show(c)}"
        if not j.dims and not c.dims and c.base == "Builder" and c.qualifier and \
                compat(j, TypeName(c.qualifier.rsplit(".", 1)[-1], c.args), self.project, self.jtp, self.ctp) > 0:
            return f"{_show(j)} -> {_show(c)} (its builder)"      # a message the port made immutable
        if not j.dims and not c.dims and any(c.base != n and c.base.endswith(n) and c.base[:-len(n)][-1:].islower()
                                             for n in name_table().types.get(j.base, ())):
            return f"{_show(j)} -> {_show(c)} (the port's own {j.base})"    # PhoneRegex for Pattern's Regex
        return None


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def _accessor(name: str, prefix: str) -> str | None:
    rest = name[len(prefix):]
    return rest if name.startswith(prefix) and rest[:1].isupper() else None


def _names(jm: "Method | _NameOnly", kind: str) -> set[str]:
    """The C# names of kind `kind` (method or property) the port's naming convention gives a Java method."""
    table, n = name_table(), len(jm.params)
    if kind == "method":
        return {_pascal(jm.name), jm.name} | set(table.methods.get(jm.name, ()))
    out = set(table.methods.get(jm.name, ())) if n == 0 else set()
    if n == 0:
        out.add(_pascal(jm.name))
        out |= {rest for p in table.getter_prefixes if (rest := _accessor(jm.name, p))}
    if n == 1:
        for p in table.setter_prefixes:
            if rest := _accessor(jm.name, p):
                out |= {rest} | {_pascal(g) + rest for g in table.getter_prefixes if g != "get"}
    return out


def _port_words(jm: "Method | _NameOnly", names: set[str], kind: str) -> set[str]:
    """The names with a word the port adds (`FinalFireTimeUtc`) or writes the .NET way (`GetInt32`,
    `GetDateTime`; Number's `intValue()` -> `ToInt32()`)."""
    table = drift_table()
    out = {n + s for n in names for s in table.suffixes}
    for n in names:
        renamed = table.word_pattern.sub(lambda m: table.words[m.group(1)][0], n)
        if renamed != n:
            out |= {renamed} | {renamed + s for s in table.suffixes}
    for n in names:
        if n.endswith("s") and not n.endswith("ss") and n[-2:-1].islower():
            out.add(n[:-1])           # a plural the port made singular (hasErrors -> HasError)
        for word in table.dropped:
            if n.endswith(word) and n[:-len(word)][-1:].islower():
                out.add(n[:-len(word)])      # setObject(int, Object) -> Set(int, object)
    head = jm.name[:-len("Value")] if jm.name.endswith("Value") else ""
    if kind == "method" and not jm.params and head in table.conversions:
        out.add(table.conversions[head])
    return out - names


def name_rank(jm: Method, cm: Method) -> int | None:
    """How the C# member's name follows from the Java method's (an index into NAME_RANKS), or None."""
    if jm.kind == "constructor" or cm.kind == "constructor":
        return 0 if jm.kind == cm.kind == "constructor" and "static" not in cm.modifiers else None
    if cm.kind not in ("method", "property"):
        return None
    names, ported, folded = _name_sets(jm.name, len(jm.params), cm.kind)
    if cm.name in names:
        return 0
    if cm.name in ported:
        return 1
    return 2 if cm.name.lower() in folded else None


@lru_cache(maxsize=65536)
def _name_sets(name: str, arity: int, kind: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A Java name's C# names of one kind: by the convention, with the port's words, and both case-folded."""
    jm = _NameOnly(name, tuple([None] * arity))
    names = _names(jm, kind)
    ported = _port_words(jm, names, kind)
    return frozenset(names), frozenset(ported), frozenset(n.lower() for n in names | ported)


@dataclass(frozen=True)
class _NameOnly:
    name: str
    params: tuple


def _defaulted(cm: Method) -> int:
    """How many trailing parameters of a C# member have defaults (or are `params`), read from its
    declaration text."""
    text = cm.signature
    open_at = text.find("(")
    if open_at < 0:
        return 0
    depth, parts, current, quote = 0, [], [], ""
    for ch in text[open_at + 1:]:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "(<[":
            depth += 1
        elif ch in ")>]":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    count = 0
    for part in reversed(parts):
        if "=" not in part and not part.strip().startswith("params "):
            break
        count += 1
    return count


def _fit(jm: Method, cm: Method, types: _Types) -> tuple[int, int, tuple[str, ...]] | None:
    """(unknown types, drifts, drift notes) of a C# member whose name already follows, or None when a
    parameter or the result plainly disagrees."""
    pairs: list[tuple[TypeName, TypeName, frozenset[str]]] = []
    named = name_words(jm.name)
    notes: list[str] = []
    extra = 0
    if cm.kind == "property":
        jt = java_param_type(jm.params[0].type, jm.params[0].varargs) if jm.params else \
            parse_type(jm.return_type or "void")
        if cm.return_type is None or (not jm.params and jm.return_type in (None, "void")) \
                or (jm.params and not has_setter(cm)):
            return None
        pairs.append((jt, parse_type(cm.return_type), named))
    else:
        cparams = [p for p in cm.params if "this" not in p.modifiers and "out" not in p.modifiers]
        extra = len(cparams) - len(jm.params)
        if extra < 0 or extra > _defaulted(cm):
            return None
        if extra:
            notes.append(f"C# defaults {extra} added parameter(s)")
        pairs += [(java_param_type(jp.type, jp.varargs), parse_type(cp.type), name_words(jp.name) | name_words(cp.name))
                  for jp, cp in zip(jm.params, cparams)]
        if jm.kind == "method":
            jr, cr = jm.return_type or "void", cm.return_type or "void"
            if (jr == "void") != (cr == "void"):
                return None
            if jr != "void":
                pairs.append((parse_type(jr), parse_type(cr), named))
    unknown = drifted = 0
    for j, c, hint in pairs:
        found = types.fit(j, c, hint)
        if found is None:
            return None
        unknown += found[0] == "unknown"
        if found[0] == "drift":
            drifted += 1
            notes.append(found[1])
    return unknown, drifted + bool(extra), tuple(notes)


def signature_fit(java: Method, cs_member: Method, *, project: dict[str, set[str]] | None = None,
                  enums: Iterable[str] = (), java_type: TypeDecl | None = None,
                  cs_type: TypeDecl | None = None) -> tuple[str, ...] | None:
    """The drifts under which a C# member's signature agrees with a Java method's (() when exactly), or
    None when a parameter or the result plainly disagrees (names are not compared)."""
    scorer = Scorer(java_type, cs_type, project or {}, frozenset(enums))
    fit = _fit(java, cs_member, _Types(scorer, java, cs_member, frozenset(enums)))
    return None if fit is None else fit[2]


def drifted_counterpart(java: Method, members: Iterable[Method], *, project: dict[str, set[str]] | None = None,
                        enums: Iterable[str] = (), java_type: TypeDecl | None = None,
                        cs_type: TypeDecl | None = None, exclude: Container[str] = frozenset()) -> Drift | None:
    """The one C# member of `members` (the counterpart type's) that the Java method became up to the
    drifts real ports make, or None (none, or several equally good). `project` maps Java simple type
    names to the C# names the mapping paired them with; `enums` names the port's enums; members whose id
    is in `exclude` (already claimed) are not taken."""
    members = list(members)
    if java.kind == "constructor" and not java.params and not any(
            m.kind == "constructor" and "static" not in m.modifiers for m in members):
        return Drift(None, ("implicit constructor: the C# type declares none",))
    scorer = Scorer(java_type, cs_type, project or {}, frozenset(enums))
    ranked = []
    for cm in members:
        if cm.id in exclude:
            continue
        rank = name_rank(java, cm)
        if rank is None:
            continue
        fit = _fit(java, cm, _Types(scorer, java, cm, frozenset(enums)))
        if fit is not None:
            ranked.append(((rank, fit[0], fit[1]), cm, fit[2]))
    if not ranked:
        return None
    ranked.sort(key=lambda r: r[0])
    best = [r for r in ranked if r[0] == ranked[0][0]]
    if len({r[1].id for r in best}) > 1:
        return None
    key, cm, notes = best[0]
    if key[0]:
        notes = (f"name {cm.name} {NAME_RANKS[key[0]]}",) + notes
    return Drift(cm, notes, key[0])


def drifted_in_port(index: "Index", mapping: TypePairs, java_method_id: str,
                    exclude: Container[str] = frozenset()) -> Drift | None:
    """drifted_counterpart for a Java method of the index, among the members of the C# type the mapping
    pairs its type with (None when the type has no counterpart)."""
    jm = index.method(java_method_id)
    if jm is None:
        return None
    match = mapping.target_type(jm.type_id)
    if match is None:
        return None
    project: dict[str, set[str]] = {}
    for tm in mapping.type_matches:
        project.setdefault(simple_name(tm.source_id), set()).add(simple_name(tm.target_id))
    enums = frozenset(t.name for t in index.types("target") if t.kind == "enum")
    return drifted_counterpart(jm, index.methods(match.target_id), project=project, enums=enums,
                               java_type=index.type(jm.type_id), cs_type=index.type(match.target_id),
                               exclude=exclude)
