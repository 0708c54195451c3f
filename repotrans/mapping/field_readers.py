"""A Java getter the naming rules miss, found through the setter of the same field: when the Java method
that writes a field (`setValue(v) { value = v; }`) is the writer of a C# property, the Java method that
only returns that field is the property's reader. cassowary's `doubleValue()` beside `setValue(double)` is
Cassowary.net's `Value`; `FIsAutosolving()` beside `setAutosolve(boolean)` is `AutoSolve`.

Three signals, never one: the getter returns exactly the field the setter assigns its parameter to, the
setter is already paired with the property's writer, and the getter's type agrees with the property's.
The property's reader must be unclaimed, the field read by one unmatched Java getter only, and no Java
subclass overrides that getter.
Where the port has no setter (a read-only port: NPOI's EncryptionHeader), the getter and a get-only C# property
that return the same field (its name up to case and a `_`/`m_` prefix) are paired on that, the type agreeing
(readers_of_same_fields), when only that property returns it.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable

from repotrans.index.model import Method
from repotrans.mapping.matches import MethodMatch
from repotrans.mapping.signatures import Scorer

CONFIDENCE = 0.8
_RETURNS_FIELD = re.compile(r"^\{?\s*return\s+(?:this\.)?([A-Za-z_]\w*)\s*;\s*\}?$")


def _written_field(setter: Method) -> str | None:
    """The field a one-parameter setter assigns its parameter to (`this.x = v;` or `x = v;`), if any."""
    if len(setter.params) != 1:
        return None
    name = re.escape(setter.params[0].name)
    found = re.findall(rf"(?:\bthis\.)?\b([A-Za-z_]\w*)\s*=\s*{name}\s*;", setter.body or "")
    return found[0] if len(set(found)) == 1 else None


def _returned_field(getter: Method) -> str | None:
    """The field a parameterless getter returns and does nothing else with, if any."""
    if getter.params or getter.return_type in (None, "void") or getter.body is None:
        return None
    found = _RETURNS_FIELD.match(getter.body.strip())
    return found.group(1) if found else None


def readers_of_written_fields(java: list[Method], matches: list[MethodMatch], by_id: dict[str, Method],
                              claimed: set[tuple[str, str]], unmatched: dict[str, str], scorer: Scorer,
                              overridden: Callable[[Method], bool] | None = None) -> list[MethodMatch]:
    """Pairs for unmatched Java getters whose field's setter is a C# property's writer (see the module doc);
    `claimed` holds (C# member id, role) taken so far, and grows with what is paired here. A getter a Java
    subclass overrides (`overridden`) is more than the field it returns here (jsoup's Node.parent(), which
    Element.parent() narrows to its own Parent) and is left alone."""
    properties: dict[str, tuple[Method, Method]] = {}       # field -> (Java setter, C# property)
    for m in matches:
        target, setter = by_id.get(m.target_id), by_id.get(m.source_id)
        if target is None or setter is None or target.kind != "property" or not setter.params:
            continue
        field = _written_field(setter)
        if field is not None:
            properties[field] = (setter, target)
    readers: dict[str, list[Method]] = defaultdict(list)
    for jm in java:
        field = _returned_field(jm) if jm.id in unmatched and jm.kind == "method" else None
        if field in properties and not (overridden is not None and overridden(jm)):
            readers[field].append(jm)
    out = []
    for field, getters in readers.items():
        setter, prop = properties[field]
        if len(getters) != 1 or (prop.id, "reader") in claimed:
            continue
        getter = getters[0]
        if scorer.return_agreement(getter, prop) <= 0:
            continue
        claimed.add((prop.id, "reader"))
        del unmatched[getter.id]
        out.append(MethodMatch(getter.id, prop.id, CONFIDENCE, "reads the field whose setter is the property's writer",
                               (f"returns {field}, which {setter.name}() assigns", f"{setter.name}() -> {prop.name} setter",
                                "type agrees")))
    return out


_PROPERTY_RETURNS = re.compile(r"^\{?\s*get\s*(?:\{\s*return\s+(?:this\.)?(\w+)\s*;\s*\}|=>\s*(?:this\.)?(\w+)\s*;)\s*\}?$"
                               r"|^=>\s*(?:this\.)?(\w+)\s*;?$")


def _field_key(name: str) -> str:
    return re.sub(r"^(?:m_|_)", "", name).lower()


def readers_of_same_fields(java: list[Method], cs: list[Method], claimed: set[tuple[str, str]],
                           unmatched: dict[str, str], scorer: Scorer,
                           overridden: Callable[[Method], bool] | None = None) -> list[MethodMatch]:
    """Pairs for unmatched Java getters and C# properties that return the same field (see the module doc)."""
    by_field: dict[str, list[Method]] = defaultdict(list)
    for c in cs:
        found = _PROPERTY_RETURNS.match((c.body or "").strip()) if c.kind == "property" else None
        if found and (c.id, "reader") not in claimed:
            by_field[_field_key(next(g for g in found.groups() if g))].append(c)
    readers: dict[str, list[Method]] = defaultdict(list)
    for jm in java:
        field = _returned_field(jm) if jm.id in unmatched and jm.kind == "method" else None
        if field is not None and not (overridden is not None and overridden(jm)):
            readers[_field_key(field)].append(jm)
    out = []
    for key, getters in readers.items():
        props = by_field.get(key, [])
        if len(getters) != 1 or len(props) != 1 or scorer.return_agreement(getters[0], props[0]) <= 0:
            continue
        getter, prop = getters[0], props[0]
        claimed.add((prop.id, "reader"))
        del unmatched[getter.id]
        out.append(MethodMatch(getter.id, prop.id, CONFIDENCE * 0.9, "returns the field the property returns",
                               (f"{getter.name}() returns {_returned_field(getter)}", f"{prop.name} returns it",
                                "type agrees")))
    return out
