"""The two retrieval stores and the engine they share.

PairStore: Java and C# bodies of every method pair the cross-repository mapping aligns, searched
by the Java side (signature + body) through BM25 and dense routes fused by RRF.
NameStore: every target method's name, signature and declaring type, searched the same way by
the target function's declaring type and signature.

A store lives in a folder: meta.json (model, dim, fingerprint of the entries), entries.json (row ->
pair or name, for readers) and vectors.faiss (row -> embedding). Opening it with the current
entries reuses the folder when their fingerprint is unchanged and otherwise rebuilds it, embedding
only snippets missing from the shared embedding cache. A folder built with another embedding
model or dimension is never silently reused or replaced: that is a ConfigError until `--rebuild`
(one built by another backend of the same model is rebuilt from the embedding cache).
"""
from __future__ import annotations

import threading

import hashlib
import json
import os
import shutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from repotrans.errors import ConfigError
from repotrans.index.placeholders import is_placeholder
from repotrans.retrieval.bm25 import Bm25Index
from repotrans.retrieval.dense import DenseIndex, embed_cached
from repotrans.retrieval.embed_cache import EmbeddingCache
from repotrans.retrieval.encoders import Encoder
from repotrans.retrieval.pooled import PooledDense
from repotrans.retrieval.prepared import PreparedStore
from repotrans.retrieval.stages import stage
from repotrans.retrieval.fusion import RRF_K, rrf
from repotrans.retrieval.tokenize import identifier_tokens

STORE_FORMAT = 3             # 2: snippets embedded up to MAX_TOKENS; 3: the encoder's backend in the fingerprint
REBUILD_HINT = "rebuild it with `repotrans retrieve --rebuild`"

Scores = dict[str, dict[str, float]]     # route -> {"rank": r, "score": s}


def has_real_body(body: str | None) -> bool:
    """False for abstract members and placeholder bodies (empty, NotImplementedException, return default)."""
    return body is not None and not is_placeholder(body)


@dataclass
class PairEntry:
    source_id: str
    target_id: str
    java_signature: str
    java_body: str
    cs_signature: str
    cs_body: str

    def text(self) -> str:
        return f"{self.java_signature}\n{self.java_body}"


@dataclass
class NameEntry:
    target_id: str
    type_id: str
    kind: str
    name: str
    signature: str

    def text(self) -> str:
        return name_text(self.type_id, self.signature)


def name_text(type_id: str, signature: str) -> str:
    """What the name store indexes and queries with: declaring type and signature."""
    return f"{type_id.split(':', 1)[-1]}: {signature}"


@dataclass
class PairHit:
    """An aligned method pair, with its rank and score from every route that returned it."""
    source_id: str
    target_id: str
    java_signature: str
    java_body: str
    cs_signature: str
    cs_body: str
    scores: Scores = field(default_factory=dict)


@dataclass
class NameHit:
    """A target method name, with its rank and score from every route that returned it."""
    target_id: str
    type_id: str
    kind: str
    name: str
    signature: str
    scores: Scores = field(default_factory=dict)


def _fingerprint(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def _write_json(path: Path, payload: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


class RoutedStore(ABC):
    """Entries searchable by BM25 and dense routes, fused by RRF; persisted in one folder."""

    kind: ClassVar[str] = "store"
    entry_type: ClassVar[type]                # PairEntry, NameEntry
    what: ClassVar[str] = "snippets"          # what the progress bar says it embeds

    def __init__(self, folder: Path, entries: list, dense: DenseIndex | PooledDense, encoder: Encoder,
                 embedded: int, pool: int = 0, bm25: Bm25Index | None = None):
        self.folder = folder
        self.entries = entries
        self.dense = dense
        self.encoder = encoder
        self.pool = pool                  # > 0: the dense route ranks the BM25 route's best `pool` rows
        self._embedded = embedded         # snippets embedded (not found in the cache) when opening
        if bm25 is None:
            with stage("build the BM25 index"):
                bm25 = Bm25Index([identifier_tokens(e.text()) for e in entries])
        self.bm25 = bm25
        self._rows: dict[str, list[int]] = {}
        for row, entry in enumerate(entries):
            for key in self.keys(entry):
                self._rows.setdefault(key, []).append(row)

    @staticmethod
    @abstractmethod
    def keys(entry) -> Iterable[str]:
        """Method ids an entry stands for (excluding any of them excludes the entry)."""

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def embedded(self) -> int:
        """Snippets this store computed (not found in the cache): when opening, or for its pools."""
        return self._embedded + (self.dense.embedded if isinstance(self.dense, PooledDense) else 0)

    @classmethod
    def read_meta(cls, folder: Path) -> dict | None:
        try:
            return json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    @classmethod
    def open(cls, folder: Path, entries: list | Callable[[], list], encoder: Encoder, cache: EmbeddingCache, *,
             rebuild: bool = False, progress: bool = True, pool: int = 0, prepared: PreparedStore | None = None,
             stop: threading.Event | None = None):
        """The store for `entries` (or what the callable returns): reused from `folder` when unchanged,
        else rebuilt and saved. With `pool` > 0 nothing is embedded here: the dense route embeds what a
        query's pool needs (`cache` must then stay open while the store is used), and a `prepared`
        slot (the per-machine prepared store of this index) gives the entries and BM25 index without
        collecting them again."""
        meta = cls.read_meta(folder)
        if pool > 0:
            return cls._open_pooled(folder, meta, entries, encoder, cache, rebuild, progress, pool, prepared, stop)
        entries = entries() if callable(entries) else entries
        with stage("fingerprint the entries"):
            fingerprint = _fingerprint([encoder.key, [asdict(e) for e in entries]])
        if meta is not None and not rebuild and meta.get("format") == STORE_FORMAT and not meta.get("pool"):
            built = f"the {cls.kind} store in {folder} was built with embedding model {meta.get('model')!r} " \
                    f"(dim {meta.get('dim')})"
            if meta.get("model") != encoder.name:         # checked before loading the configured model
                raise ConfigError(f"{built}, but the configured model is {encoder.name!r}; {REBUILD_HINT}")
            if meta.get("dim") != encoder.dim:
                raise ConfigError(f"{built}, but {encoder.name!r} now gives dim {encoder.dim}; {REBUILD_HINT}")
            if meta.get("fingerprint") == fingerprint:      # same entries: the saved vectors are theirs
                try:
                    dense = DenseIndex.load(folder / "vectors.faiss")
                except RuntimeError:                        # missing or unreadable: rebuild below
                    dense = None
                if dense is not None and dense.size == len(entries) and dense.dim == encoder.dim:
                    return cls(folder, entries, dense, encoder, 0)
        return cls.build(folder, entries, encoder, cache, fingerprint, progress, stop)

    @classmethod
    def _open_pooled(cls, folder: Path, meta: dict | None, entries: list | Callable[[], list], encoder: Encoder,
                     cache: EmbeddingCache, rebuild: bool, progress: bool, pool: int, prepared: PreparedStore | None,
                     stop: threading.Event | None):
        if meta is not None and not rebuild and meta.get("model") not in (None, encoder.name):
            raise ConfigError(f"the {cls.kind} store in {folder} was built with embedding model "
                              f"{meta.get('model')!r}, but the configured model is {encoder.name!r}; {REBUILD_HINT}")
        with stage("read the prepared store"):
            hit = prepared.load() if prepared is not None and not rebuild else None
        bm25 = None
        if hit is not None:
            rows, bm25, fingerprint = hit
            entries = [cls.entry_type(**row) for row in rows]
        else:
            entries = entries() if callable(entries) else entries
            with stage("fingerprint the entries"):
                fingerprint = _fingerprint([encoder.key, [asdict(e) for e in entries]])
        if meta is None or meta.get("fingerprint") != fingerprint or meta.get("pool") != pool:
            with stage("write the store folder"):
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "vectors.faiss").unlink(missing_ok=True)
                if hit is not None:
                    shutil.copyfile(prepared.entries_file, folder / "entries.json")
                else:
                    _write_json(folder / "entries.json", [asdict(e) for e in entries])
                _write_json(folder / "meta.json", {"format": STORE_FORMAT, "kind": cls.kind, "model": encoder.name,
                                                   "encoder": encoder.key, "dim": encoder.dim,
                                                   "count": len(entries), "fingerprint": fingerprint, "pool": pool})
        dense = PooledDense(encoder, cache, [e.text() for e in entries], progress=progress, what=cls.what, stop=stop)
        store = cls(folder, entries, dense, encoder, 0, pool, bm25)
        if hit is None and prepared is not None:
            with stage("save the prepared store"):
                prepared.save(folder / "entries.json", store.bm25, fingerprint, len(entries))
        return store

    @classmethod
    def build(cls, folder: Path, entries: list, encoder: Encoder, cache: EmbeddingCache, fingerprint: str,
              progress: bool, stop: threading.Event | None = None):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "meta.json").unlink(missing_ok=True)      # a half-written folder is never reused
        vectors, embedded = embed_cached(encoder, cache, [e.text() for e in entries], progress, cls.what, stop)
        dense = DenseIndex.build(vectors, encoder.dim)
        dense.save(folder / "vectors.faiss")
        _write_json(folder / "entries.json", [asdict(e) for e in entries])
        _write_json(folder / "meta.json", {"format": STORE_FORMAT, "kind": cls.kind, "model": encoder.name,
                                           "encoder": encoder.key,
                                           "dim": encoder.dim, "count": len(entries), "fingerprint": fingerprint})
        return cls(folder, entries, dense, encoder, embedded)

    @staticmethod
    def bm25_tokens(text: str) -> list[str]:
        return identifier_tokens(text)

    def rows_of(self, ids: Iterable[str]) -> frozenset[int]:
        return frozenset(row for i in ids for row in self._rows.get(i, ()))

    def search(self, query: str, k: int, exclude_ids: Iterable[str] = (),
               vector: np.ndarray | None = None) -> list[tuple[int, Scores]]:
        """Top-k rows for `query` by RRF over the BM25 and dense top-k, never an excluded id's row.

        `vector` is the query's embedding when the caller already has it (it batches several queries)."""
        if not self.entries or k <= 0:
            return []
        exclude = self.rows_of(exclude_ids)
        if vector is None:
            with stage("embed the query"):
                vector = self.encoder.encode([query])[0]
        bm25 = self.bm25.top_k(self.bm25_tokens(query), max(k, self.pool), exclude)
        if isinstance(self.dense, PooledDense):
            with stage("rank the pool by the dense route"):
                dense = self.dense.top_k(vector, k, [row for row, _ in bm25], exclude)
        else:
            dense = self.dense.top_k(vector, k, exclude)
        routes = {"bm25": bm25[:k], "dense": dense}
        per_row: dict[int, Scores] = {}
        for route, hits in routes.items():
            for rank, (row, score) in enumerate(hits, start=1):
                per_row.setdefault(row, {})[route] = {"rank": rank, "score": round(score, 6)}
        fused = rrf({route: [row for row, _ in hits] for route, hits in routes.items()}, k=RRF_K)
        result = []
        for rank, (row, score) in enumerate(fused[:k], start=1):
            per_row[row]["rrf"] = {"rank": rank, "score": round(score, 6)}
            result.append((row, per_row[row]))
        return result


class PairStore(RoutedStore):
    kind = "pair"
    entry_type = PairEntry
    what = "Java method pairs"

    @staticmethod
    def keys(entry: PairEntry) -> Iterable[str]:
        return (entry.source_id, entry.target_id)

    @staticmethod
    def query_text(java_signature: str, java_body: str) -> str:
        return PairEntry("", "", java_signature, java_body, "", "").text()

    def query(self, java_signature: str, java_body: str, k: int, exclude_ids: Iterable[str] = (),
              vector: np.ndarray | None = None) -> list[PairHit]:
        """Pairs similar to a Java method (`vector`: the embedding of its query_text, if already computed)."""
        return [PairHit(**asdict(self.entries[row]), scores=scores)
                for row, scores in self.search(self.query_text(java_signature, java_body), k, exclude_ids, vector)]


class NameStore(RoutedStore):
    kind = "name"
    entry_type = NameEntry
    what = "C# member names"

    @staticmethod
    def keys(entry: NameEntry) -> Iterable[str]:
        return (entry.target_id,)

    @staticmethod
    def query_text(type_id: str, signature: str) -> str:
        return name_text(type_id, signature)

    def query(self, type_id: str, signature: str, k: int, exclude_ids: Iterable[str] = (),
              vector: np.ndarray | None = None) -> list[NameHit]:
        """Target members close to a signature (`vector`: the embedding of its query_text, if already computed)."""
        return [NameHit(**asdict(self.entries[row]), scores=scores)
                for row, scores in self.search(self.query_text(type_id, signature), k, exclude_ids, vector)]


def collect_pairs(methods: dict[str, Any], matches: Sequence[Any], exclude_ids: frozenset[str]) -> list[PairEntry]:
    """Pair entries for aligned methods (`matches` with source_id/target_id) whose two bodies are real."""
    pairs = []
    for match in matches:
        if match.source_id in exclude_ids or match.target_id in exclude_ids:
            continue
        src, tgt = methods.get(match.source_id), methods.get(match.target_id)
        if src is None or tgt is None or not has_real_body(src.body) or not has_real_body(tgt.body):
            continue
        pairs.append(PairEntry(src.id, tgt.id, src.signature, src.body, tgt.signature, tgt.body))
    return pairs


def collect_names(target_methods: Iterable[Any], exclude_ids: frozenset[str]) -> list[NameEntry]:
    """Name entries for every target method not excluded."""
    return [NameEntry(m.id, m.type_id, m.kind, m.name, m.signature)
            for m in target_methods if m.id not in exclude_ids]
