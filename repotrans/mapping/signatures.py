"""Do a Java method's parameter and return types agree with a C# member's, through the type map?

`Cand` is a C# member seen as a candidate: the parameters to compare (an extension method's `this`
parameter or a C# method's added `out` parameters left out) and the member kinds it can stand for.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.index.model import Method, Param, TypeDecl
from repotrans.mapping.typenames import compat, java_param_type, name_table, parse_type

SOFT = 0.25          # cannot tell: a Java type the map does not know, or int -> an enum of the same name
UNSIGNED = {"int": "uint", "long": "ulong", "short": "ushort"}     # Java has none: the port's same-width type
NUMERIC = frozenset({"byte", "short", "int", "long", "float", "double", "sbyte", "ushort", "uint", "ulong",
                     "decimal"})


@dataclass(frozen=True)
class Cand:
    member: Method
    params: tuple[Param, ...]
    kinds: frozenset[str]
    via: str = ""               # "" (own member) or how another class holds it ("inherited from X")
    note: str = ""              # how the parameters were read ("C# adds out parameters")


_TYPE_PARAM_NAME = re.compile(r"^\s*(\w+)")


def tparams(*decls) -> frozenset[str]:
    """Names of the type parameters declared by types/methods (`T extends X` -> T)."""
    out = set()
    for d in decls:
        for tp in (d.type_params if d is not None else ()):
            match = _TYPE_PARAM_NAME.match(tp)
            if match:
                out.add(match.group(1))
    return frozenset(out)


_SETTER = re.compile(r"\bset\b")


class Scorer:
    """Parameter and return-type comparison for one matched type pair."""

    def __init__(self, jt: TypeDecl | None, ct: TypeDecl | None, project: dict[str, set[str]], enums: frozenset[str]):
        self.jt, self.ct, self.project, self.enums = jt, ct, project, enums

    def _compat(self, jtext: str | None, varargs: bool, ctext: str | None, jm: Method, cm: Method) -> float:
        if jtext is None or ctext is None:
            return 1.0 if jtext == ctext else 0.0
        return compat(java_param_type(jtext, varargs), parse_type(ctext), self.project,
                      tparams(self.jt, jm), tparams(self.ct, cm))

    def params(self, jm: Method, cand: Cand, drop_last: bool = False) -> float:
        """1 every parameter exact, 0.5 some raw/generic, 0 a mismatch or another count."""
        jparams = jm.params[:-1] if drop_last else jm.params
        if len(jparams) != len(cand.params):
            return 0.0
        score = 1.0
        for jp, cp in zip(jparams, cand.params):
            score = min(score, self._compat(jp.type, jp.varargs, cp.type, jm, cand.member))
        return score

    def agreement(self, jm: Method, cand: Cand, drop_last: bool = False, numeric: bool = False) -> float:
        """Like params(), but a parameter the map cannot judge counts SOFT instead of 0; 0 means some
        parameter plainly disagrees (a known type against another) or the counts differ. With `numeric`,
        one numeric type for another (float -> int) counts SOFT: only with other evidence (round 2)."""
        jparams = jm.params[:-1] if drop_last else jm.params
        if len(jparams) != len(cand.params):
            return 0.0
        score = 1.0
        for jp, cp in zip(jparams, cand.params):
            score = min(score, self.param_agreement(jm, jp, cand.member, cp, numeric))
            if score == 0.0:
                break
        return score

    def param_agreement(self, jm: Method, jp: Param, cm: Method, cp: Param, numeric: bool = False) -> float:
        c = self._compat(jp.type, jp.varargs, cp.type, jm, cm)
        if c > 0:
            return c
        jt, ct = java_param_type(jp.type, jp.varargs), parse_type(cp.type)
        if jt.dims == ct.dims + 1 and {"ref", "out"} & set(cp.modifiers) and jp.type.endswith("[]") \
                and self._compat(jp.type[:-2], False, cp.type, jm, cm) > 0:
            return SOFT       # jBCrypt's one-element `int offp[]` that returns a value is BCrypt.Net's `ref int`
        if jt.dims != ct.dims:
            return 0.0
        if numeric and jt.base in NUMERIC and ct.base in NUMERIC:
            return SOFT
        if UNSIGNED.get(jt.base) == ct.base:     # jBCrypt's int[] S-boxes are BCrypt.Net's uint[]: the same bits
            return SOFT
        if jt.base in ("int", "Integer", "short", "byte") and ct.base in self.enums:
            return SOFT if jp.name.lower() == cp.name.lower() else 0.0   # int constants -> an enum
        known = jt.base in self.project or jt.base in name_table().types or jt.base in tparams(self.jt, jm)
        return 0.0 if known else SOFT

    def returns(self, jm: Method, cand: Cand) -> float:
        return self._compat(jm.return_type, False, cand.member.return_type, jm, cand.member)

    def return_agreement(self, jm: Method, cm: Method) -> float:
        """A Java getter's return type against a C# property's (or method's) type, SOFT when unknown."""
        if jm.return_type is None or cm.return_type is None:
            return 1.0 if jm.return_type == cm.return_type else 0.0
        return self.param_agreement(jm, Param("", jm.return_type), cm, Param("", cm.return_type))


def has_setter(prop: Method) -> bool:
    """Whether a C# property can be written: it declares a `set` accessor, or it is abstract (no body
    to read)."""
    return prop.body is None or bool(_SETTER.search(prop.body))
