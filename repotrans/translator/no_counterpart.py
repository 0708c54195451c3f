"""Why a candidate names something the port does not have, said so that a refine step can act on it.

A compile error on a name (CS0103), a member (CS1061, CS0117) or a type (CS0246) that the translation kept
from Java because the port has no counterpart is explained with what Java declares and what the port has
instead: a field of Java's class the port does not declare (declare it as the candidate's own private field,
or write the body without it), a member the port's type lacks (the members it has), a Java type neither the
port nor the JDK table knows. The builtin's reflect step shows these reasons; a model reads them there.
"""
from __future__ import annotations

import re

from repotrans.verdicts.results import TestResult
from repotrans.translator.cs_types import jdk_table
from repotrans.translator.resolver import ContextResolver, name_key

_NAME = re.compile(r"The name [`'](?P<name>\w+)' does not exist")
_MEMBER = re.compile(r"[`'](?P<type>[^`']+)' does not contain a definition for [`'](?P<member>\w+)'")
_TYPE = re.compile(r"[`'](?P<name>[\w.]+)' could not be found")
SHOWN = 8               # members of the port's type named in a reason


def missing_reasons(result: TestResult, resolver: ContextResolver) -> list[str]:
    """One line per distinct compile error on something Java has and the port does not (module doc)."""
    reasons: list[str] = []
    for diagnostic in result.diagnostics:
        if diagnostic.severity != "error":
            continue
        reason = _reason(diagnostic.code, diagnostic.message, resolver)
        if reason is not None and reason not in reasons:
            reasons.append(reason)
    return reasons


def _reason(code: str, message: str, resolver: ContextResolver) -> str | None:
    own = resolver.types.get(resolver.current or "")
    found = _NAME.search(message) if code == "CS0103" else None
    if found is not None and own is not None and found.group("name") in own.java_fields:
        name = found.group("name")
        if any(name_key(m) == name_key(name) for m in resolver.members(None)):
            return None
        return (f"`{name}` is Java's field `{own.java_fields[name]} {name}` of {resolver.current}, which the port "
                "does not declare in any spelling and the mapping pairs with nothing: declare it as a private "
                "field of the candidate, or write the body without it")
    found = _MEMBER.search(message) if code in ("CS1061", "CS0117") else None
    if found is not None:
        owner = found.group("type").rsplit(".", 1)[-1]
        key = resolver.java_name_of(owner)
        members = resolver.members(key) if key in resolver.types or owner in resolver.types else []
        if not members:
            return None
        shown = ", ".join(members[:SHOWN]) + (", ..." if len(members) > SHOWN else "")
        return (f"the port's {owner} has no member `{found.group('member')}` in any spelling (Java's call has no "
                f"counterpart there); it has: {shown}: use one of those, or write the body without the call")
    found = _TYPE.search(message) if code == "CS0246" else None
    if found is not None:
        name = found.group("name").rsplit(".", 1)[-1]
        if name in jdk_table()["types"] or name in resolver.types:
            return None
        return (f"`{name}` is a Java type that neither the port nor the JDK table has: use the port's own type "
                "for what it does, or write the body without it")
    return None
