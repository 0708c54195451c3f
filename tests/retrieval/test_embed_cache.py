"""The per-machine embedding cache: shared by workdirs and processes, lazy stores, interruption, doctor."""
from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import numpy as np
import pytest

from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.retrieval.dense import EmbeddingStopped, embed_cached
from repotrans.retrieval.embed_cache import CACHE_FILE, EmbeddingCache, cache_report
from repotrans.retrieval.encoders import BATCH_SIZE
from repotrans.retrieval.retriever import Retriever
from tests.retrieval.test_retrieval import SAMPLE, HashingEncoder, _real_pairs


def _indexed(workdir: Path):
    index = Index.open(workdir)
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    return index, load_mapping(index)


def test_a_second_workdir_embeds_nothing_with_the_same_cache_folder(tmp_path):
    cache_dir = tmp_path / "user-cache"
    first_index, first_mapping = _indexed(tmp_path / "run1")
    enc = HashingEncoder()
    first = Retriever.open(tmp_path / "run1", index=first_index, mapping=first_mapping, encoder=enc,
                           cache_dir=cache_dir, progress=False)
    assert first.pairs.embedded > 0 and (cache_dir / CACHE_FILE).is_file()
    second_index, second_mapping = _indexed(tmp_path / "run2")
    second = Retriever.open(tmp_path / "run2", index=second_index, mapping=second_mapping, encoder=enc,
                            cache_dir=cache_dir, progress=False)
    calls = len(enc.calls)
    assert second.pairs.embedded == 0 and len(enc.calls) == calls
    assert (tmp_path / "run2" / "retrieval" / "all" / "pairs" / "vectors.faiss").is_file()
    alone = Retriever.open(tmp_path / "run2", index=second_index, mapping=second_mapping, encoder=enc,
                           cache_dir=None, rebuild=True, progress=False)      # --no-cache: nothing shared
    assert alone.pairs.embedded == first.pairs.embedded


def test_only_the_queried_store_is_built(tmp_path):
    index, mapping = _indexed(tmp_path / "wd")
    enc = HashingEncoder()
    retriever = Retriever.open(tmp_path / "wd", index=index, mapping=mapping, encoder=enc,
                               cache_dir=tmp_path / "cache", progress=False)
    assert enc.calls == [] and not (tmp_path / "wd" / "retrieval").exists()      # nothing before a query
    match = _real_pairs(index, mapping)[0]
    result = retriever.retrieve(match.source_id, k=3, names=False)
    assert result.candidates and result.names == []
    assert (tmp_path / "wd" / "retrieval" / "all" / "pairs" / "meta.json").is_file()
    assert not (tmp_path / "wd" / "retrieval" / "all" / "names").exists()
    assert len(enc.calls) == len({e.text() for e in retriever.pairs.entries}) + 1     # the pairs + one query


def _writer(path: str, start: int, count: int) -> None:
    cache = EmbeddingCache(Path(path))
    for i in range(start, start + count):                 # one transaction per row: many lock hand-overs
        cache.put_many("enc", {f"k{i}": np.full(8, i, dtype=np.float32)})
    cache.close()


def test_processes_write_the_same_cache_at_once(tmp_path):
    path = tmp_path / CACHE_FILE
    EmbeddingCache(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), start, 150)) for start in (0, 100, 200)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    found = EmbeddingCache(path).get_many([f"k{i}" for i in range(350)], 8)
    assert len(found) == 350 and all(v[0] == int(k[1:]) for k, v in found.items())


class StoppingEncoder(HashingEncoder):
    """Asks embedding to stop (as Ctrl-C in another thread would) once it has embedded `after` batches."""

    def __init__(self, after: int):
        super().__init__()
        self.after, self.batches = after, 0
        self.stop = threading.Event()       # the run's stop event (agents.workdir.RunCaches.stop)

    def encode(self, texts):
        self.batches += 1
        if self.batches == self.after:
            self.stop.set()
        return super().encode(texts)


def test_stopping_keeps_what_was_embedded(tmp_path):
    texts = [f"int f{i}() {{ return {i}; }}" for i in range(BATCH_SIZE * 5)]
    cache = EmbeddingCache(tmp_path / CACHE_FILE)
    encoder = StoppingEncoder(after=2)
    with pytest.raises(EmbeddingStopped, match=f"stopped after {BATCH_SIZE * 2} of {len(texts)}"):
        embed_cached(encoder, cache, texts, progress=False, stop=encoder.stop)
    enc = HashingEncoder()
    _, embedded = embed_cached(enc, cache, texts, progress=False)
    assert embedded == len(texts) - BATCH_SIZE * 2


def test_interrupt_in_the_middle_saves_the_finished_batches(tmp_path):
    class Interrupting(HashingEncoder):
        def encode(self, texts):
            if len(self.calls) >= BATCH_SIZE * 3:
                raise KeyboardInterrupt
            return super().encode(texts)

    texts = [f"int g{i}() {{ return {i}; }}" for i in range(BATCH_SIZE * 6)]
    cache = EmbeddingCache(tmp_path / CACHE_FILE)
    with pytest.raises(KeyboardInterrupt):
        embed_cached(Interrupting(), cache, texts, progress=False)
    assert len(cache.get_many([k for k in _keys(texts)], HashingEncoder().dim)) == BATCH_SIZE * 3


def _keys(texts):
    from repotrans.retrieval.embed_cache import content_key
    from repotrans.retrieval.encoders import MAX_TOKENS
    return [content_key("hashing-64", MAX_TOKENS, t) for t in texts]


def test_cache_report_names_the_file_its_size_and_rows(tmp_path):
    assert "off" in cache_report(None)
    assert "nothing embedded" in cache_report(tmp_path)
    cache = EmbeddingCache.in_folder(tmp_path)
    cache.put_many("all-MiniLM-L6-v2@onnx-int8", {"a": np.zeros(4, np.float32), "b": np.ones(4, np.float32)})
    cache.close()
    line = cache_report(tmp_path)
    assert str(tmp_path / CACHE_FILE) in line and "MiB" in line and "2 by all-MiniLM-L6-v2@onnx-int8" in line


def test_doctor_reports_the_embedding_cache(tmp_path, monkeypatch, capsys):
    from repotrans.cli import main
    monkeypatch.setenv("REPOTRANS_CACHE_DIR", str(tmp_path))
    cache = EmbeddingCache.in_folder(tmp_path)
    cache.put_many("all-MiniLM-L6-v2@onnx-int8", {"a": np.zeros(4, np.float32)})
    cache.close()
    main(["doctor", "--model", "builtin"])
    out = capsys.readouterr().out
    assert f"embedding cache: {tmp_path / CACHE_FILE}" in out and "1 by all-MiniLM-L6-v2@onnx-int8" in out
    main(["doctor", "--model", "builtin", "--no-cache", "--embedding-backend", "torch"])
    out = capsys.readouterr().out
    assert "embedding cache: off" in out and "on torch" in out


def test_pooled_dense_route_embeds_only_what_queries_need(tmp_path):
    from tests.retrieval.test_retrieval import _pairs
    from repotrans.retrieval.stores import PairStore
    entries = _pairs()
    enc = HashingEncoder()
    cache = EmbeddingCache(tmp_path / CACHE_FILE)
    pooled = PairStore.open(tmp_path / "pooled", entries, enc, cache, pool=4, progress=False)
    assert enc.calls == [] and pooled.embedded == 0                   # nothing before a query
    query = ("public int count(String s)", "{ return s.toUpperCase(); }")
    hits = pooled.query(*query, k=3)
    pool = [row for row, _ in pooled.bm25.top_k(pooled.bm25_tokens(PairStore.query_text(*query)), 4)]
    assert len(pool) == 4 and pooled.embedded == 4 and set(enc.calls[1:5]) == {entries[r].text() for r in pool}     # after the query
    assert {h.source_id for h in hits if "dense" in h.scores} <= {entries[r].source_id for r in pool}
    whole = PairStore.open(tmp_path / "whole", entries, HashingEncoder(), EmbeddingCache(tmp_path / "w.sqlite"),
                           progress=False)
    every = PairStore.open(tmp_path / "every", entries, enc, cache, pool=len(entries), progress=False)
    assert every.query(*query, k=3) == whole.query(*query, k=3)       # a pool of every row: the same answer
    assert every.embedded == len(entries) - 4                         # the first pool's rows came from the cache
