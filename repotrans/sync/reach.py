"""What an edit of `repotrans sync` reaches that the port does not give it yet, read from the new Java
and the judge's diagnostics: members added upstream that the new body calls (filled in the same judged
step as the edit, so each is judged by the tests that reach it through its caller), and port members
C# keeps private where Java reaches them from the package (CS0122; the port's own fix is `internal`)."""
from __future__ import annotations

import re

from repotrans.sync.diff import Change
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index

INACCESSIBLE = re.compile(r"`([\w.]+)\(([^)]*)\)' is inaccessible due to its protection level")


def new_callees(new: Method, added: dict[str, Change], new_methods: dict[str, Method], index: Index,
                mapping) -> list[tuple[Change, Method]]:
    """The added members (`added`: new Java id -> change) declared in the new Java member's file that its
    body calls by name, each with its placeholder in the work copy (create-missing wrote it)."""
    body = new.body or ""
    out = []
    for new_id, c in sorted(added.items()):
        java = new_methods.get(new_id)
        if java is None or java.id == new.id or java.path != new.path or \
                not re.search(rf"(?<![\w$]){re.escape(java.name)}\s*\(", body):
            continue
        match = mapping.target_method(new_id)
        target = index.method(match.target_id) if match is not None else None
        if target is not None and is_placeholder(target.body):
            out.append((c, target))
    return out


def inaccessible(result, index: Index, mapping) -> list[Method]:
    """Port members a candidate may not call (CS0122) that are counterparts of Java members (the new Java
    calls them, so Java reaches them) and have one declaration of that name and arity."""
    out: dict[str, Method] = {}
    for d in getattr(result, "diagnostics", None) or []:
        m = INACCESSIBLE.search(d.message or "") if d.code == "CS0122" else None
        if m is None or "." not in m.group(1):
            continue
        type_name, name = m.group(1).rsplit(".", 1)
        arity = _arity(m.group(2))
        found = [x for x in index.methods("target:" + type_name) if x.name == name and len(x.params) == arity]
        if len(found) == 1 and mapping.source_method(found[0].id) is not None:
            out[found[0].id] = found[0]
    return list(out.values())


def _arity(params: str) -> int:
    """Parameters in a diagnostic's list (`int, Dictionary<int, string>` is two)."""
    depth, count = 0, 1 if params.strip() else 0
    for ch in params:
        depth += {"<": 1, ">": -1}.get(ch, 0)
        count += ch == "," and depth == 0
    return count
