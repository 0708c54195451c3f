"""BM25 route: rank-bm25's Okapi model, scored through an inverted index kept as flat arrays.

`BM25Okapi.get_scores` walks every document for every query token in Python, which is
~30 ms per query on 10,000 snippets. The model (idf, k1, b, document lengths) is taken from
rank-bm25 unchanged; only the scoring visits just the documents that contain a query token.
Scores are identical to `BM25Okapi.get_scores` (tests check it). The postings are flat arrays
(term -> a slice of rows and term frequencies), so an index saves to one .npz file and loads
without tokenising its corpus again (`save`, `load`).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np


class Bm25Index:
    """BM25 over pre-tokenised documents; rows are positions in the corpus list."""

    def __init__(self, corpus: Sequence[Sequence[str]]):
        self.size = len(corpus)
        self.k1 = 1.5
        self._terms: dict[str, int] = {}
        self._idf = self._norm = self._rows = self._tfs = np.zeros(0)
        self._offsets = np.zeros(1, dtype=np.int64)
        if not self.size:
            return
        from rank_bm25 import BM25Okapi

        model = BM25Okapi([list(doc) for doc in corpus])
        self.k1 = float(model.k1)
        doc_len = np.asarray(model.doc_len, dtype=np.float64)
        self._norm = model.k1 * (1 - model.b + model.b * doc_len / model.avgdl)
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for row, freqs in enumerate(model.doc_freqs):
            for term, tf in freqs.items():
                rows, tfs = postings.setdefault(term, ([], []))
                rows.append(row)
                tfs.append(tf)
        terms = list(postings)
        self._terms = {t: i for i, t in enumerate(terms)}
        self._idf = np.asarray([model.idf[t] for t in terms], dtype=np.float64)
        self._offsets = np.cumsum([0] + [len(postings[t][0]) for t in terms], dtype=np.int64)
        self._rows = np.fromiter((r for t in terms for r in postings[t][0]), dtype=np.int64)
        self._tfs = np.fromiter((f for t in terms for f in postings[t][1]), dtype=np.float64)

    def save(self, path: Path) -> None:
        """Write the index to `path` (.npz; the terms as JSON inside it)."""
        terms = json.dumps(list(self._terms), ensure_ascii=False).encode("utf-8")
        with open(path, "wb") as out:
            np.savez(out, terms=np.frombuffer(terms, dtype=np.uint8), idf=self._idf, norm=self._norm,
                     offsets=self._offsets, rows=self._rows, tfs=self._tfs, k1=np.float64(self.k1))

    @classmethod
    def load(cls, path: Path) -> Bm25Index:
        """An index saved by `save` (scores identical to the one saved)."""
        with np.load(path) as data:
            index = cls([])
            terms = json.loads(data["terms"].tobytes().decode("utf-8"))
            index._terms = {t: i for i, t in enumerate(terms)}
            index._idf, index._norm = data["idf"], data["norm"]
            index._offsets, index._rows, index._tfs = data["offsets"], data["rows"], data["tfs"]
            index.k1 = float(data["k1"])
            index.size = len(index._norm)
        return index

    def scores(self, query: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """BM25 score of every row, and a mask of the rows sharing at least one query token."""
        score = np.zeros(self.size)
        matched = np.zeros(self.size, dtype=bool)
        k1 = self.k1
        for term in query:          # repeated query tokens count again, as in rank-bm25
            at = self._terms.get(term)
            if at is None:
                continue
            lo, hi = self._offsets[at], self._offsets[at + 1]
            rows, tf = self._rows[lo:hi], self._tfs[lo:hi]
            score[rows] += self._idf[at] * (tf * (k1 + 1) / (tf + self._norm[rows]))
            matched[rows] = True
        return score, matched

    def top_k(self, query: Sequence[str], k: int, exclude_rows: frozenset[int] = frozenset()
              ) -> list[tuple[int, float]]:
        """The k best rows sharing a token with the query, as (row, score), best first."""
        score, matched = self.scores(query)
        for row in exclude_rows:
            if 0 <= row < self.size:
                matched[row] = False
        rows = np.flatnonzero(matched)
        if not len(rows) or k <= 0:
            return []
        if len(rows) > k:
            rows = rows[np.argpartition(-score[rows], k - 1)[:k]]
        rows = rows[np.lexsort((rows, -score[rows]))]
        return [(int(r), float(score[r])) for r in rows]
