"""Reciprocal Rank Fusion (Cormack et al., 2009): score(d) = sum over routes of 1 / (k + rank(d))."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

RRF_K = 60


def rrf(rankings: Mapping[str, Sequence[Hashable]], k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse ranked id lists (best first, ranks from 1) into one list of (id, score), best first.

    Ties are broken by the best single-route rank, then by first appearance in route order,
    so the fused order is deterministic.
    """
    if k < 0:
        raise ValueError(f"rrf k must be >= 0, got {k}")
    scores: dict[Hashable, float] = {}
    best_rank: dict[Hashable, int] = {}
    for ranking in rankings.values():
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best_rank[item] = min(best_rank.get(item, rank), rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], order[kv[0]]))
