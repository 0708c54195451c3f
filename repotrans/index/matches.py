"""One aligned pair (Java -> C#) with how sure the mapping is and which rule made it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TypeMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str


@dataclass(frozen=True)
class MethodMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str
