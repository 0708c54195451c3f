"""The mapping as JSON records, one per line (`repotrans mapping --format jsonl`): every namespace,
type and member match with its confidence, reason and evidence, and every unmatched Java type and
method with the reason. A line can be edited and read back as a mapping override (overrides.py)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from repotrans.mapping.mapping import Mapping

if TYPE_CHECKING:
    from repotrans.index.store import Index


def records(mapping: Mapping, index: Index) -> Iterator[dict]:
    """namespace, type and method records (ids without the side prefix; target None = unmatched)."""
    for pkg in sorted(mapping.namespace_votes):
        yield {"kind": "namespace", "source": pkg, "target": mapping.namespace_map.get(pkg),
               "votes": mapping.namespace_votes[pkg]}
    for kind, matches, misses, lookup in (
            ("type", mapping.type_matches, mapping.unmatched_types, index.type),
            ("method", mapping.method_matches, mapping.unmatched_methods, index.method)):
        rows = [(m.source_id, m) for m in matches] + [(sid, None) for sid in misses]
        for sid, m in sorted(rows, key=lambda r: r[0]):
            rec = {"kind": kind, "source": _bare(sid), "target": _bare(m.target_id) if m else None,
                   "confidence": m.confidence if m else None,
                   "reason": m.reason if m else misses[sid],
                   "evidence": list(m.evidence) if m else [],
                   "source_location": _where(lookup(sid))}
            if m:
                rec["target_location"] = _where(lookup(m.target_id))
            yield rec


def _bare(declaration_id: str) -> str:
    return declaration_id.split(":", 1)[1]


def _where(decl) -> str | None:
    return f"{decl.path}:{decl.start_line}" if decl is not None else None
