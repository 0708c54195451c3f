"""The dense route over a query's pool: embed only what is queried, when it is queried.

Embedding a whole store up front costs minutes on a large port (7,600 Java snippets of a
1,000-file port at ~40 snippets/s). Here the dense route ranks the rows of the query's pool (the
BM25 route's best `pool` rows): each row's vector comes from the per-machine embedding cache, and
the rows no query needed before are embedded when one first does (then cached for every later
query, run folder and process). The fused top-k changes only where a dense-only hit lay outside
the pool; `scripts/bench_retrieval.py --port` measures that against the whole-store route.
"""
from __future__ import annotations

import threading

from collections.abc import Sequence

import numpy as np

from repotrans.retrieval.dense import embed_cached
from repotrans.retrieval.embed_cache import EmbeddingCache
from repotrans.retrieval.encoders import Encoder

DEFAULT_POOL = 100


class PooledDense:
    """Vectors for the rows a pool named so far; the others are read from the cache (or computed)
    when a pool first names them, so opening the store reads nothing."""

    def __init__(self, encoder: Encoder, cache: EmbeddingCache, texts: Sequence[str], *, progress: bool = True,
                 what: str = "snippets", stop: threading.Event | None = None):
        self.encoder, self.cache, self.texts = encoder, cache, list(texts)
        self.progress, self.what, self.stop = progress, what, stop
        self.dim = encoder.dim
        self.vectors = np.zeros((len(self.texts), self.dim), dtype=np.float32)
        self.have = np.zeros(len(self.texts), dtype=bool)
        self.embedded = 0              # rows this store had to compute (not in the cache)

    @property
    def size(self) -> int:
        return len(self.texts)

    def top_k(self, query: np.ndarray, k: int, pool: Sequence[int], exclude_rows: frozenset[int] = frozenset()
              ) -> list[tuple[int, float]]:
        """The k rows of `pool` most cosine-similar to `query`, as (row, score); pool rows without a
        vector are read from the cache or embedded (and cached)."""
        rows = [r for r in dict.fromkeys(pool) if r not in exclude_rows]
        need = [r for r in rows if not self.have[r]]
        if need:
            vectors, computed = embed_cached(self.encoder, self.cache, [self.texts[r] for r in need], self.progress,
                                             self.what, self.stop)
            self.vectors[need] = vectors
            self.have[need] = True
            self.embedded += computed
        if not rows or k <= 0:
            return []
        picked = np.asarray(rows, dtype=np.int64)
        scores = self.vectors[picked] @ np.asarray(query, dtype=np.float32).reshape(-1)
        best = np.lexsort((picked, -scores))[:k]
        return [(int(picked[i]), float(scores[i])) for i in best]
