"""Repository conventions the prompt states, so that they win over generic mapping guidelines.

Today: which C# exception each Java exception became in the methods already ported (a repository
may turn IllegalArgumentException into ArgumentOutOfRangeException, not ArgumentException), for the
exceptions the method under translation throws.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Iterable

_NEW_EXCEPTION = re.compile(r"\bnew\s+(?:[\w.]+\.)?(\w*(?:Exception|Error))\s*\(")


def exception_pairs(pairs: Iterable[tuple[str, str]]) -> dict[str, Counter]:
    """Java exception -> Counter of the C# exceptions thrown in its place, over (java body, C# body) pairs
    that throw the same number of exceptions (matched in order)."""
    out: dict[str, Counter] = defaultdict(Counter)
    for java, cs in pairs:
        j, c = _NEW_EXCEPTION.findall(java or ""), _NEW_EXCEPTION.findall(cs or "")
        if j and len(j) == len(c):
            for a, b in zip(j, c):
                out[a][b] += 1
    return dict(out)


def conventions_for(java_body: str, table: dict[str, Counter]) -> list[str]:
    """Sentences for the exceptions `java_body` throws that the repository has translated before."""
    lines = []
    for name in dict.fromkeys(_NEW_EXCEPTION.findall(java_body or "")):
        seen = table.get(name)
        if not seen:
            continue
        (best, n), total = seen.most_common(1)[0], sum(seen.values())
        lines.append(f"Java `{name}` became `{best}` in {n} of {total} ported methods that throw it; do the same.")
    return lines
