"""JDK types a port wraps in a type of its own: where Java declares a JDK type (`Pattern`), the port
declares its own class deriving from that type's .NET counterpart (libphonenumber's `PhoneRegex : Regex`).

Read from what both sides declare: the fields of each aligned type pair (by name, up to case and a `_`
prefix), and the parameters and results of each aligned method pair, type arguments included
(`Map<String, Pattern>` against `Dictionary<string, PhoneRegex>`). Each declaration of the port's type is
one observation (key `type Pattern`, template the C# type), however many keep the .NET type (libphonenumber
keeps `Regex` in about half of them). What the .NET counterpart does the port's type does
too (it derives from it), so the JDK table's templates still apply to it and a value of it goes wherever
the counterpart is declared: what a candidate creates is the port's type (api_map.ApiMap.wrapper), and
the port's own members that declare it (`PhoneRegex GetPatternForRegex`) receive one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from repotrans.index.model import Method
from repotrans.mapping.api_map import TYPE_KEY, Observation
from repotrans.mapping.typenames import CS_ALIASES, TypeName, name_table, parse_type

if TYPE_CHECKING:
    from repotrans.index.model import TypeDecl
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping



def _norm(name: str) -> str:
    return name.lower().lstrip("_").removeprefix("m_")


class _Learner:
    """Pairs of declared types walked together; one observation per JDK type met on the Java side."""

    def __init__(self, index: "Index"):
        self.index = index
        self.project = {t.name for t in index.types("source")}
        self.port: dict[str, TypeDecl] = {}
        for t in index.types("target"):
            self.port.setdefault(t.name, t)
        self.derives: dict[tuple[str, frozenset[str]], bool] = {}
        self.found: list[Observation] = []

    def derives_from(self, cs: str, counterparts: frozenset[str]) -> bool:
        """Whether the port's type `cs` (or a port type it derives from) names a counterpart as its base."""
        key = (cs, counterparts)
        if key not in self.derives:
            decl = self.port.get(cs)
            chain = [decl, *self.index.supertypes(decl)] if decl is not None else []
            self.derives[key] = any(parse_type(b).base in counterparts for t in chain for b in t.bases)
        return self.derives[key]

    def pair(self, java: TypeName, cs: TypeName, source_id: str, target_id: str) -> None:
        if java.dims != cs.dims:
            return
        counterparts = name_table().types.get(java.base)
        if counterparts is not None and java.base not in self.project and not java.args and not java.qualifier:
            base = CS_ALIASES.get(cs.base, cs.base)
            if base not in counterparts and base in self.port and self.derives_from(base, counterparts):
                self.found.append(Observation(TYPE_KEY.format(java.base), base, True, (), source_id, target_id,
                                              java.base, base))
            return
        if len(java.args) == len(cs.args):
            for ja, ca in zip(java.args, cs.args):
                self.pair(ja, ca, source_id, target_id)

    def declared(self, java_type: str | None, cs_type: str | None, source_id: str, target_id: str) -> None:
        if java_type and cs_type:
            self.pair(parse_type(java_type), parse_type(cs_type), source_id, target_id)


def _signature_pairs(java: Method, cs: Method) -> list[tuple[str | None, str | None]]:
    pairs = [(p.type, q.type) for p, q in zip(java.params, cs.params)] if len(java.params) == len(cs.params) else []
    return pairs + [(java.return_type, cs.return_type)]


def declared_types(index: "Index", mapping: "Mapping") -> list[Observation]:
    """An observation per JDK type a paired field, parameter or result declares where the port declares a
    type of its own deriving from the JDK type's .NET counterpart."""
    learner = _Learner(index)
    for tm in mapping.type_matches:
        cs_fields = {_norm(f.name): f for f in index.fields(tm.target_id)}
        for f in index.fields(tm.source_id):
            twin = cs_fields.get(_norm(f.name))
            if twin is not None:
                learner.declared(f.type, twin.type, f.id, twin.id)
    for mm in mapping.method_matches:
        java, cs = index.method(mm.source_id), index.method(mm.target_id)
        if java is None or cs is None:
            continue
        for jt, ct in _signature_pairs(java, cs):
            learner.declared(jt, ct, java.id, cs.id)
    return learner.found

