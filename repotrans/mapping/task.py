"""Turn a user's function signature (C# target or Java source) into a translation task."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from repotrans.errors import InputError
from repotrans.mapping.mapping import Mapping
from repotrans.index.model import SIDES, Method, Side

if TYPE_CHECKING:
    from repotrans.index.store import Index

MAX_SUGGESTIONS = 5


@dataclass(frozen=True)
class TranslationTask:
    target_method_id: str          # the C# member whose body is to be written
    source_method_id: str          # the Java method it is translated from


def resolve_task(index: Index, mapping: Mapping, signature: str) -> TranslationTask:
    """Find the one (C# member, Java method) pair a signature names.

    Accepts "Acme.Geo.Shapes.Circle.Area", "Circle.Scale(double)", "org.acme.geometry.shapes.Circle.getArea()"
    or a full id ("target:...", "source:..."). Raises InputError with close matches when nothing or
    several pairs match, or when the pair is incomplete.
    """
    query = " ".join(signature.split())
    if not query:
        raise InputError("empty function signature")
    sides = SIDES
    for side in SIDES:
        if query.startswith(side + ":"):
            sides, query = (side,), query[len(side) + 1:]
    pairs: dict[tuple[str | None, str | None], Method] = {}
    for side in sides:
        for m in index.find_methods(side, query):
            if side == "target":
                match = mapping.source_method(m.id)
                pairs.setdefault((m.id, match.source_id if match else None), m)
            else:
                match = mapping.target_method(m.id)
                pairs.setdefault((match.target_id if match else None, m.id), m)
    if not pairs:
        raise InputError(f"no method matches '{signature}'", did_you_mean=_suggest(index, query, sides))
    if len(pairs) > 1:
        shown = sorted(m.id for m in pairs.values())
        raise InputError(f"'{signature}' matches {len(pairs)} methods; add the namespace or the parameter types",
                         did_you_mean=[_display(i) for i in shown])
    (target_id, source_id), hit = next(iter(pairs.items()))
    if source_id is None:
        raise InputError(f"C# member {_display(hit.id)} has no Java counterpart in the mapping")
    if target_id is None:
        reason = mapping.unmatched_methods.get(source_id, "unmatched")
        raise InputError(f"Java method {_display(hit.id)} has no C# counterpart ({reason})")
    target = index.method(target_id)
    if target is None or not has_code(target):
        raise InputError(f"C# member {_display(target_id)} has no body to translate "
                         "(abstract, extern, interface member or auto-property)")
    return TranslationTask(target_method_id=target_id, source_method_id=source_id)


def resolve_pair(index: Index, java_signature: str, target_member: str) -> TranslationTask:
    """The task a user names directly: a Java method and the C# member to write it into, whatever the
    mapping says (a port that renamed `getBar` to `Bar`). InputError with close matches when either
    side names nothing or several members."""
    java = _one(index, "source", java_signature, "Java method")
    member = _one(index, "target", target_member, "C# member")
    if not has_code(member):
        raise InputError(f"C# member {_display(member.id)} has no body to translate "
                         "(abstract, extern, interface member or auto-property)")
    return TranslationTask(target_method_id=member.id, source_method_id=java.id)


def _one(index: Index, side: Side, signature: str, what: str) -> Method:
    query = " ".join(signature.split())
    if query.startswith(side + ":"):
        query = query[len(side) + 1:]
    if not query:
        raise InputError(f"empty {what} signature")
    found = index.find_methods(side, query)
    if not found:
        raise InputError(f"no {what} matches '{signature}'", did_you_mean=_suggest(index, query, (side,)))
    if len(found) > 1:
        raise InputError(f"'{signature}' matches {len(found)} {what}s; add the type or the parameter types",
                         did_you_mean=sorted(_display(m.id) for m in found))
    return found[0]


def has_code(m: Method) -> bool:
    """Whether a member has code of its own (a property's accessor list needs a block or an `=>`)."""
    if m.body is None:
        return False
    if m.kind in ("property", "indexer"):
        body = m.body.strip()
        return body.startswith("=>") or "=>" in body or "{" in body[1:]
    return True


def _display(method_id: str) -> str:
    return method_id.split(":", 1)[1]


def _suggest(index: Index, query: str, sides: tuple[Side, ...]) -> list[str]:
    """Close matches, narrowed first: members of the named (or closely named) type, else members
    whose name is close to the queried name; then ranked by the whole signature."""
    owner, _, name = query.split("(")[0].strip().rpartition(".")
    pool: list[Method] = []
    for side in sides:
        owners = index.find_types(side, owner) if owner else []
        if owner and not owners:
            simple = owner.rsplit(".", 1)[-1]
            names = {t.name for t in index.types(side)}
            owners = [t for close in difflib.get_close_matches(simple, names, n=3, cutoff=0.7)
                      for t in index.find_types(side, close)]
        pool += [m for t in owners for m in index.methods(t.id)]
    if not pool:
        everything = [m for side in sides for m in index.all_methods(side)]
        close = set(difflib.get_close_matches(name, {m.name for m in everything}, n=MAX_SUGGESTIONS, cutoff=0.6))
        pool = [m for m in everything if m.name in close]
    forms: dict[str, str] = {}
    for m in pool:
        full = _display(m.id)
        owner_name = m.type_id.split(":", 1)[1].rsplit(".", 1)[-1]
        short = full[len(m.type_id.split(":", 1)[1]) + 1:]
        for form in (full, f"{owner_name}.{short}", f"{owner_name}.{m.name}", short):
            forms.setdefault(form, full)
    close = difflib.get_close_matches(query, list(forms), n=MAX_SUGGESTIONS * 3, cutoff=0.5)
    out: list[str] = []
    for form in close:
        if forms[form] not in out:
            out.append(forms[form])
    return out[:MAX_SUGGESTIONS]
