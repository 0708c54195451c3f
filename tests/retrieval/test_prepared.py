"""Prepared stores per machine (a second run folder collects and tokenises nothing), BM25 saved as
arrays, the weights digest remembered, and the stage clock."""
from __future__ import annotations

import hashlib
import shutil

import numpy as np
import pytest

from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.retrieval import retriever as retriever_module
from repotrans.retrieval.bm25 import Bm25Index
from repotrans.retrieval.encoders import weights_digest
from repotrans.retrieval.prepared import PREPARED_DIR, PreparedStore, prune
from repotrans.retrieval.retriever import Retriever
from repotrans.retrieval.stages import recording, report, stage
from repotrans.retrieval.tokenize import identifier_tokens
from tests.retrieval.test_retrieval import DOCS, SAMPLE, HashingEncoder, _real_pairs


def test_bm25_saved_and_loaded_scores_the_same(tmp_path):
    index = Bm25Index(DOCS)
    index.save(tmp_path / "bm25.npz")
    loaded = Bm25Index.load(tmp_path / "bm25.npz")
    for query in ("int total(int[] values) { return sum(values); } getName", "getName name", "nothing here"):
        tokens = identifier_tokens(query)
        assert np.array_equal(loaded.scores(tokens)[0], index.scores(tokens)[0])
        assert loaded.top_k(tokens, 3, frozenset({2})) == index.top_k(tokens, 3, frozenset({2}))
    Bm25Index([]).save(tmp_path / "empty.npz")
    assert Bm25Index.load(tmp_path / "empty.npz").top_k(["name"], 3) == []


def _open(workdir, cache_dir, enc) -> Retriever:
    index = Index.open(workdir, must_exist=True)
    return Retriever.open(workdir, index=index, encoder=enc, cache_dir=cache_dir, progress=False, pool=4)


def test_a_second_run_folder_reads_the_prepared_store_instead_of_collecting(tmp_path, monkeypatch):
    first_dir, cache_dir = tmp_path / "run1", tmp_path / "user-cache"
    index = Index.open(first_dir)
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    function = _real_pairs(index, load_mapping(index))[0].source_id
    index.close()
    enc = HashingEncoder()
    first = _open(first_dir, cache_dir, enc).retrieve(function, k=3, names=False)
    assert len(list((cache_dir / PREPARED_DIR).iterdir())) == 1
    second_dir = tmp_path / "run2"
    second_dir.mkdir()
    shutil.copy(first_dir / "index.sqlite", second_dir / "index.sqlite")

    def no_collecting(*args, **kwargs):
        raise AssertionError("a prepared store was collected again")

    monkeypatch.setattr(retriever_module, "collect_pairs", no_collecting)
    second = _open(second_dir, cache_dir, enc)
    assert second.retrieve(function, k=3, names=False) == first
    assert (second_dir / "retrieval" / "all" / "pairs" / "entries.json").read_bytes() == \
        (first_dir / "retrieval" / "all" / "pairs" / "entries.json").read_bytes()
    with pytest.raises(AssertionError, match="collected again"):     # another evaluation set: another slot
        Retriever.open(second_dir, index=Index.open(second_dir, must_exist=True), encoder=enc, cache_dir=cache_dir,
                       progress=False, pool=4, exclude_ids=[function]).pairs


def test_a_damaged_prepared_store_is_prepared_again(tmp_path):
    slot = PreparedStore(tmp_path / "slot")
    assert slot.load() is None
    entries = tmp_path / "entries.json"
    entries.write_text('[{"a": 1}, {"a": 2}]')
    slot.save(entries, Bm25Index([["a"], ["b"]]), "fp", 2)
    rows, bm25, fingerprint = slot.load()
    assert rows == [{"a": 1}, {"a": 2}] and bm25.size == 2 and fingerprint == "fp"
    (slot.folder / "bm25.npz").write_bytes(b"not an npz")
    assert slot.load() is None


def test_prune_keeps_the_most_recently_used(tmp_path):
    import os
    for n in range(5):
        (tmp_path / f"s{n}").mkdir()
        os.utime(tmp_path / f"s{n}", (1000 + n, 1000 + n))
    prune(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s3", "s4"]


def test_the_weights_digest_is_remembered_until_the_file_changes(tmp_path):
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights v1")
    home = tmp_path / "models"
    home.mkdir()
    assert weights_digest(weights, home) == hashlib.sha256(b"weights v1").hexdigest()[:16]
    memo = next(home.glob("weights-*.sha256"))
    memo.write_text("0123456789abcdef")               # the memo is what a second process reads
    assert weights_digest(weights, home) == "0123456789abcdef"
    weights.write_bytes(b"weights v2 (another size)")
    assert weights_digest(weights, home) == hashlib.sha256(b"weights v2 (another size)").hexdigest()[:16]


def test_stages_record_wall_and_cpu_outer_before_inner():
    with stage("not recorded"):
        pass
    with recording() as log:
        with stage("outer"):
            with stage("inner"):
                sum(range(10_000))
    with stage("after"):
        pass
    outer, inner = log.records
    assert (outer.name, outer.depth, inner.name, inner.depth) == ("outer", 0, "inner", 1)
    assert outer.wall >= inner.wall >= 0 and outer.cpu >= 0
    assert report([outer, inner]).splitlines()[1].startswith("  inner: ")
