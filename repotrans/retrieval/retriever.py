"""Retrieval for one function under translation: similar aligned pairs and close target names.

`Retriever.open(workdir)` prepares the stores under workdir/retrieval/ for the current index; each
store is opened (reused, or built by embedding what the per-machine cache lacks) when it is first
queried, so a run that only asks for pairs never embeds the target's names. `retrieve(workdir,
source_method_id)` opens them for one query (a workload keeps one retriever in its run context,
agents.workdir). The function under translation and
its C# counterpart are never returned. With an evaluation set (`exclude_ids`), the stores are built
without every listed method and its counterpart, in their own folder.
"""
from __future__ import annotations

import difflib
import hashlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from repotrans.errors import InputError
from repotrans.retrieval.embed_cache import EmbeddingCache
from repotrans.retrieval.prepared import PreparedStore
from repotrans.retrieval.stages import stage
from repotrans.retrieval.encoders import DEFAULT_BACKEND, DEFAULT_MODEL, Encoder, make_encoder
from repotrans.retrieval.stores import (NameHit, NameStore, PairHit, PairStore, RoutedStore,
                                        collect_names, collect_pairs, has_real_body)

RETRIEVAL_DIR = "retrieval"


@dataclass
class RetrievalResult:
    """Similar pairs and close target names, best first; `reason` says what was searched or why nothing was."""
    candidates: list[PairHit]
    reason: str = ""
    names: list[NameHit] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


def scope_name(exclude_ids: Iterable[str]) -> str:
    """Folder of a store scope: "all", or "eval-<hash>" for stores built without an evaluation set."""
    ids = sorted(set(exclude_ids))
    if not ids:
        return "all"
    return "eval-" + hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()[:16]


def with_counterparts(mapping, ids: Iterable[str]) -> frozenset[str]:
    """The given method ids plus the other side of each one the mapping aligns."""
    out = set(ids)
    for method_id in list(out):
        for match in (mapping.target_method(method_id), mapping.source_method(method_id)):
            if match is not None:
                out.update((match.source_id, match.target_id))
    return frozenset(out)


Opener = Callable[[], RoutedStore]


class Retriever:
    """Stores over one index and mapping; a store given as an opener is opened on first use."""

    def __init__(self, index, mapping, pairs: PairStore | Opener, names: NameStore | Opener,
                 excluded: frozenset[str]):
        self.index = index
        self.mapping = mapping
        self._stores: dict[str, RoutedStore | Opener] = {"pair": pairs, "name": names}
        self._lock = threading.Lock()
        self.excluded = excluded            # evaluation set incl. counterparts: absent from the stores

    def _store(self, kind: str) -> RoutedStore:
        with self._lock:
            store = self._stores[kind]
            if not isinstance(store, RoutedStore):
                with stage(f"open the {kind} store"):
                    store = self._stores[kind] = store()
            return store

    @property
    def pairs(self) -> PairStore:
        return self._store("pair")

    @property
    def names(self) -> NameStore:
        return self._store("name")

    @property
    def embedded(self) -> int:
        """Snippets embedded while opening the stores opened so far (0 when all came from the cache)."""
        return sum(s.embedded for s in self._stores.values() if isinstance(s, RoutedStore))

    @classmethod
    def open(cls, workdir: Path, *, index=None, mapping=None, overrides=None, exclude_ids: Iterable[str] = (),
             encoder: Encoder | None = None, cache_dir: Path | None = None, rebuild: bool = False,
             progress: bool = True, pool: int = 0, index_state: str | None = None,
             stop: threading.Event | None = None) -> Retriever:
        """Stores for the index in `workdir` (or the given index/mapping; else the mapping with the
        user's `overrides`), reused when unchanged and
        opened when first queried; `cache_dir` holds the per-machine embedding cache (None: a cache
        in memory, for this retriever only); `pool` > 0: each query's dense route ranks the BM25
        route's best `pool` rows, embedding only those (retrieval.pooled), 0: the whole store;
        then the stores' entries and BM25 indexes are kept per machine in `cache_dir` too
        (retrieval.prepared), keyed by `index_state` (the mapping cache's fingerprint of the index
        and `overrides`; computed when not given). `stop`: the run's; embedding stops once it is set."""
        if index is None:
            from repotrans.index.store import Index
            index = Index.open(Path(workdir), must_exist=True)
        keyed = mapping is None or index_state is not None      # a given mapping's overrides are unknown
        if mapping is None:
            from repotrans.mapping.load import load_mapping
            mapping = load_mapping(index, overrides)
        encoder = encoder or make_encoder(DEFAULT_MODEL, DEFAULT_BACKEND, cache_dir=cache_dir)
        exclude_ids = set(exclude_ids)
        unknown = sorted(i for i in exclude_ids if index.method(i) is None)
        if unknown:                                 # a mistyped id would silently leak its pair
            raise InputError(f"{len(unknown)} evaluation method id(s) are not in the index, e.g. '{unknown[0]}'")
        excluded = with_counterparts(mapping, exclude_ids)
        folder = Path(workdir) / RETRIEVAL_DIR / scope_name(exclude_ids)
        cache = EmbeddingCache.in_folder(cache_dir)       # open while the stores are used (pooled routes)

        def prepared(kind: str) -> PreparedStore | None:
            if cache_dir is None or pool <= 0 or not keyed:
                return None
            from repotrans.mapping.mapping_cache import fingerprint
            return PreparedStore.slot(cache_dir, kind, encoder.key, index_state or fingerprint(index, overrides),
                                      exclude_ids)

        def opener(store: type[RoutedStore], entries: Callable[[], list]) -> Opener:
            return lambda: store.open(folder / f"{store.kind}s", entries, encoder, cache, rebuild=rebuild,
                                      progress=progress, pool=pool, prepared=prepared(store.kind), stop=stop)

        def pair_entries() -> list:
            with stage("collect the aligned pairs"):
                methods = {m.id: m for m in index.all_methods("source") + index.all_methods("target")}
                return collect_pairs(methods, mapping.method_matches, excluded)

        def name_entries() -> list:
            with stage("collect the target names"):
                return collect_names(index.all_methods("target"), excluded)

        return cls(index, mapping, opener(PairStore, pair_entries), opener(NameStore, name_entries), excluded)

    def summary(self) -> str:
        """One line per store: size, model, where it lives; and how much was embedded to open it."""
        lines = [f"{s.kind} store: {len(s)} entries, {s.encoder.name} (dim {s.dense.dim}), {s.folder}"
                 for s in (self.pairs, self.names)]
        if self.excluded:
            lines.append(f"built without {len(self.excluded)} evaluation methods (incl. counterparts)")
        lines.append(f"embedded {self.embedded} snippets (the rest came from the cache)")
        return "\n".join(lines)

    def retrieve(self, source_method_id: str, k: int = 5, names: bool = True) -> RetrievalResult:
        """Top-k pairs similar to the Java method and (`names`) top-k target names close to its C#
        counterpart; without `names` the name store is never opened."""
        if k < 1:
            raise InputError(f"k must be at least 1, got {k}")
        with stage("look up the function"):
            source = self.index.method(source_method_id)
        if source is None or source.side != "source":
            ids = [m.id for m in self.index.all_methods("source")]
            raise InputError(f"no Java method with id '{source_method_id}'",
                             did_you_mean=difflib.get_close_matches(source_method_id, ids, n=5))
        if not has_real_body(source.body):
            return RetrievalResult([], f"{source_method_id} has an empty or placeholder body; nothing to search by")
        match = self.mapping.target_method(source_method_id)
        target = self.index.method(match.target_id) if match else None
        own = {source_method_id} | ({match.target_id} if match else set())
        anchor = target or source
        if not names:
            pairs = self.pairs.query(source.signature, source.body, k, own)
            return RetrievalResult(pairs, self._reason(pairs, None, own))
        pairs, found = self.search(source.signature, source.body, anchor.type_id, anchor.signature, k, own)
        return RetrievalResult(pairs, self._reason(pairs, found, own), found)

    def search(self, java_signature: str, java_body: str, type_id: str, signature: str, k: int,
               exclude_ids: Iterable[str] = ()) -> tuple[list[PairHit], list[NameHit]]:
        """Pairs similar to a Java method and target names close to (type_id, signature).

        With one encoder for both stores, the two query texts are embedded in one encode call (an
        empty store's query is not embedded at all)."""
        pair_text = PairStore.query_text(java_signature, java_body)
        name_text = NameStore.query_text(type_id, signature)
        vectors: dict[str, np.ndarray] = {}
        if self.pairs.encoder is self.names.encoder:
            wanted = [text for store, text in ((self.pairs, pair_text), (self.names, name_text)) if len(store)]
            if wanted:
                with stage("embed the queries"):
                    vectors = dict(zip(wanted, self.pairs.encoder.encode(wanted)))
        pairs = self.pairs.query(java_signature, java_body, k, exclude_ids, vectors.get(pair_text))
        names = self.names.query(type_id, signature, k, exclude_ids, vectors.get(name_text))
        return pairs, names

    def _reason(self, pairs: list, names: list | None, own: set[str]) -> str:
        if not len(self.pairs) and (names is None or not len(self.names)):
            return ("the retrieval stores are empty: no aligned pairs with real bodies"
                    + (" and no target methods" if names is not None else ""))
        searched = "" if names is None else f" and {len(names)} of {len(self.names)} target names"
        parts = [f"{len(pairs)} of {len(self.pairs)} pairs{searched} "
                 f"by BM25 + dense ({self.pairs.encoder.name}) fused with RRF",
                 f"excluded the function and its counterpart ({', '.join(sorted(own))})"]
        if self.excluded:
            parts.append(f"stores built without {len(self.excluded)} evaluation methods")
        return "; ".join(parts)


def retrieve(workdir: Path, source_method_id: str, k: int = 5, exclude_ids: Iterable[str] = (),
             model: str = DEFAULT_MODEL, backend: str = DEFAULT_BACKEND, *, cache_dir: Path | None = None,
             threads: int = 0, names: bool = True, progress: bool = True, pool: int = 0,
             overrides=None) -> RetrievalResult:
    """One retrieval for one Java method from the index in `workdir` (the mapping with the user's
    `overrides`), opened for this call and closed after it: what a benchmark times from a fresh
    process. A workload that retrieves for many tasks opens its retriever once over the index it
    holds (agents.workdir.Workdir.retriever). `cache_dir`: the per-machine embedding cache's folder
    (None: none); `names` False: only pairs (the name store is not built); `pool`: see Retriever.open."""
    from repotrans.mapping.load import load_mapping
    from repotrans.mapping.mapping_cache import fingerprint
    from repotrans.index.store import Index

    with stage("open the index"):
        index = Index.open(Path(workdir), must_exist=True)
    try:
        with stage("fingerprint the index"):
            state = fingerprint(index, overrides)
        encoder = make_encoder(model, backend, threads=threads, cache_dir=cache_dir)
        with stage("load the mapping"):
            mapping = load_mapping(index, overrides)
        retriever = Retriever.open(Path(workdir), index=index, mapping=mapping, exclude_ids=exclude_ids,
                                   encoder=encoder, cache_dir=cache_dir, progress=progress, pool=pool,
                                   overrides=overrides, index_state=state)
        with stage("retrieve"):
            return retriever.retrieve(source_method_id, k, names=names)
    finally:
        index.close()


RELEVANCE_BAR = 0.5          # cosine of the dense route a lone-route candidate needs to be shown


def above_bar(candidates: list[PairHit], bar: float = RELEVANCE_BAR) -> tuple[list[PairHit], int]:
    """The candidates worth showing: found by both routes, or close by the dense route (cosine >= `bar`).

    A pair only BM25 found shares words, not meaning; for a simple method most of the top k are such
    pairs. Returns (kept, number dropped)."""
    kept = [c for c in candidates if ("bm25" in c.scores and "dense" in c.scores)
            or c.scores.get("dense", {}).get("score", 0.0) >= bar]
    return kept, len(candidates) - len(kept)
