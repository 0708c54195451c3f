"""One aligned pair (Java -> C#) with how sure the mapping is, which rule made it and the evidence."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TypeMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str
    evidence: tuple[str, ...] = ()     # e.g. ("member overlap 0.80",); empty for a plain name rule


@dataclass(frozen=True)
class MethodMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str
    evidence: tuple[str, ...] = ()     # e.g. ("body 0.82", "name 0.67", "parameters agree")
