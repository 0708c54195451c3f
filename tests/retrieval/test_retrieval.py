"""Retrieval: tokenizer, RRF, BM25, dense cache and faiss persistence, stores, leakage guards, CLI."""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from repotrans.errors import ConfigError, InputError
from repotrans.retrieval.bm25 import Bm25Index
from repotrans.retrieval.dense import DenseIndex, embed_cached
from repotrans.retrieval.embed_cache import EmbeddingCache, content_key
from repotrans.retrieval.fusion import rrf
from repotrans.retrieval.stores import NameEntry, NameStore, PairEntry, PairStore, collect_pairs
from repotrans.retrieval.tokenize import identifier_tokens

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"


class HashingEncoder:
    """Deterministic bag-of-identifier-tokens embedding; counts what it was asked to embed."""

    def __init__(self, name: str = "hashing-64", dim: int = 64):
        self.name = name
        self.key = name
        self.dim = dim
        self.calls: list[str] = []

    def encode(self, texts):
        self.calls.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for tok in identifier_tokens(text):
                out[row, int(hashlib.md5(tok.encode()).hexdigest(), 16) % self.dim] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
        return out


# --- tokenizer ---------------------------------------------------------------------------------

def test_tokenizer_splits_camel_pascal_snake_and_lowercases():
    assert identifier_tokens("getHTTPStatus(raw_input, XmlReader r2) { return 42; }") == [
        "get", "http", "status", "gethttpstatus", "raw", "input", "rawinput",
        "xml", "reader", "xmlreader", "r", "2", "r2", "return", "42"]


def test_tokenizer_ignores_punctuation_and_keeps_single_words_once():
    assert identifier_tokens("a+b == __init__ && Total") == ["a", "b", "init", "total"]
    assert identifier_tokens("IOError parseURL") == ["io", "error", "ioerror", "parse", "url", "parseurl"]


# --- RRF ---------------------------------------------------------------------------------------

def test_rrf_sums_reciprocal_ranks_with_k60():
    fused = rrf({"bm25": ["a", "b", "c"], "dense": ["c", "a"]})
    assert [i for i, _ in fused] == ["a", "c", "b"]
    scores = dict(fused)
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["b"] == pytest.approx(1 / 62)


def test_rrf_ties_break_by_best_rank_then_route_order_and_k_matters():
    assert [i for i, _ in rrf({"x": ["p", "q"], "y": ["q", "p"]})] == ["p", "q"]
    # k=0: every id scores 1 (1/1, or 1/2 + 1/2 for b); ties go to the best rank, then first appearance
    assert [i for i, _ in rrf({"x": ["a", "b"], "y": ["c", "b"], "z": ["d"]}, k=0)] == ["a", "c", "d", "b"]
    assert [i for i, _ in rrf({"x": ["a", "b"], "y": ["c", "b"]}, k=60)][0] == "b"
    assert rrf({}) == []


# --- BM25 --------------------------------------------------------------------------------------

DOCS = [identifier_tokens(t) for t in [
    "int sum(int[] values) { int total = 0; for (int v : values) total += v; return total; }",
    "String getName() { return name; }",
    "void setName(String name) { this.name = name; }",
    "double average(int[] values) { return sum(values) / (double) values.length; }",
    "boolean isEmpty() { return size == 0; }",
]]


def test_bm25_scores_equal_rank_bm25():
    index = Bm25Index(DOCS)
    query = identifier_tokens("int total(int[] values) { return sum(values); } getName")
    score, matched = index.scores(query)
    assert np.allclose(score, BM25Okapi(DOCS).get_scores(query))
    assert matched.tolist() == [True, True, True, True, True]


def test_bm25_top_k_excludes_rows_and_skips_docs_without_shared_tokens():
    index = Bm25Index(DOCS)
    query = identifier_tokens("getName name")
    assert [row for row, _ in index.top_k(query, 5)] == [1, 2]
    assert [row for row, _ in index.top_k(query, 5, frozenset({1}))] == [2]
    assert Bm25Index([]).top_k(query, 3) == []


# --- dense: cache, incremental embedding, faiss persistence --------------------------------------

def test_embedding_cache_embeds_only_what_changed(tmp_path):
    enc = HashingEncoder()
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    texts = ["int a() { return 1; }", "int b() { return 2; }", "int a() { return 1; }"]
    first, n1 = embed_cached(enc, cache, texts, progress=False)
    assert n1 == 2 and enc.calls == texts[:2]
    again, n2 = embed_cached(enc, cache, texts, progress=False)
    assert n2 == 0 and len(enc.calls) == 2 and np.array_equal(first, again)
    _, n3 = embed_cached(enc, cache, texts[:2] + ["int c() { return 3; }"], progress=False)
    assert n3 == 1 and enc.calls[-1] == "int c() { return 3; }"
    other = HashingEncoder(name="another-model")
    _, n4 = embed_cached(other, cache, texts[:1], progress=False)
    assert n4 == 1 and content_key("hashing-64", 128, texts[0]) != content_key("another-model", 128, texts[0])


def test_dense_index_round_trip(tmp_path):
    enc = HashingEncoder()
    vectors = enc.encode([" ".join(d) for d in DOCS])
    index = DenseIndex.build(vectors, enc.dim)
    query = enc.encode(["getName return name"])[0]
    before = index.top_k(query, 3)
    index.save(tmp_path / "v.faiss")
    loaded = DenseIndex.load(tmp_path / "v.faiss")
    assert loaded.size == 5 and loaded.dim == 64
    assert loaded.top_k(query, 3) == before
    assert before[0][0] == 1 and before[0][1] == pytest.approx(float(vectors[1] @ query), abs=1e-6)
    assert 1 not in [r for r, _ in loaded.top_k(query, 3, frozenset({1}))]
    assert len(loaded.top_k(query, 3, frozenset({1}))) == 3


def test_bad_encoder_settings_are_config_errors():
    from repotrans.retrieval.encoders import make_encoder
    with pytest.raises(ConfigError, match="embedding threads must be 0"):
        make_encoder(threads=-1)
    with pytest.raises(ConfigError, match="unknown embedding backend 'tensorflow'"):
        make_encoder(backend="tensorflow")
    with pytest.raises(ConfigError, match="neither 'all-MiniLM-L6-v2' nor a local"):
        make_encoder("no-such-model")


# --- stores ------------------------------------------------------------------------------------

def _pairs(n: int = 6) -> list[PairEntry]:
    bodies = [("getName()", "{ return name; }", "Name", "{ get { return name; } }"),
              ("sum(int[] xs)", "{ int t = 0; for (int x : xs) t += x; return t; }",
               "Sum(int[] xs)", "{ int t = 0; foreach (var x in xs) t += x; return t; }"),
              ("isEmpty()", "{ return items.isEmpty(); }", "IsEmpty", "{ get { return items.Count == 0; } }"),
              ("toUpper(String s)", "{ return s.toUpperCase(); }", "ToUpper(string s)", "{ return s.ToUpper(); }"),
              ("size()", "{ return items.size(); }", "Size()", "{ return items.Count; }"),
              ("clear()", "{ items.clear(); }", "Clear()", "{ items.Clear(); }")]
    return [PairEntry(f"source:p.C.{j}", f"target:P.C.{c}", f"public int {j}", jb, f"public int {c}", cb)
            for j, jb, c, cb in bodies[:n]]


def test_pair_store_persistence_round_trip_and_warm_reopen(tmp_path):
    enc = HashingEncoder()
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    built = PairStore.open(tmp_path / "pairs", _pairs(), enc, cache, progress=False)
    assert built.embedded == 6
    meta = json.loads((tmp_path / "pairs" / "meta.json").read_text())
    assert (meta["model"], meta["dim"], meta["count"], meta["kind"]) == ("hashing-64", 64, 6, "pair")
    hits = built.query("public int count(String s)", "{ return s.toUpperCase(); }", 3)
    reopened = PairStore.open(tmp_path / "pairs", _pairs(), enc, cache, progress=False)
    assert reopened.embedded == 0 and len(enc.calls) == 6 + 1      # 6 snippets + 1 query, nothing since
    assert json.loads((tmp_path / "pairs" / "entries.json").read_text()) == [e.__dict__ for e in _pairs()]
    assert reopened.query("public int count(String s)", "{ return s.toUpperCase(); }", 3) == hits
    assert hits[0].source_id == "source:p.C.toUpper(String s)"
    assert set(hits[0].scores) == {"bm25", "dense", "rrf"} and hits[0].scores["rrf"]["rank"] == 1
    changed = _pairs()
    changed[0].cs_body = "{ get { return this.name; } }"
    assert PairStore.open(tmp_path / "pairs", changed, enc, cache, progress=False).embedded == 0  # Java text same
    changed[0].java_body = "{ return this.name; }"
    assert PairStore.open(tmp_path / "pairs", changed, enc, cache, progress=False).embedded == 1


def test_unchanged_store_reads_its_vectors_from_faiss_not_the_cache(tmp_path):
    enc = HashingEncoder()
    with_cache = EmbeddingCache(tmp_path / "emb.sqlite")
    built = PairStore.open(tmp_path / "pairs", _pairs(), enc, with_cache, progress=False)
    empty_cache = EmbeddingCache(tmp_path / "other.sqlite")
    reopened = PairStore.open(tmp_path / "pairs", _pairs(), enc, empty_cache, progress=False)
    assert reopened.embedded == 0 and len(enc.calls) == 6
    assert np.array_equal(reopened.dense.index.reconstruct_n(0, 6), built.dense.index.reconstruct_n(0, 6))


def test_store_built_with_another_model_is_a_config_error_until_rebuild(tmp_path):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    PairStore.open(tmp_path / "pairs", _pairs(), HashingEncoder(), cache, progress=False)
    for other in (HashingEncoder(name="other-model"), HashingEncoder(dim=32)):
        with pytest.raises(ConfigError, match=r"rebuild it with `repotrans retrieve --rebuild`"):
            PairStore.open(tmp_path / "pairs", _pairs(), other, cache, progress=False)
    rebuilt = PairStore.open(tmp_path / "pairs", _pairs(), HashingEncoder(dim=32), cache, rebuild=True,
                             progress=False)
    assert rebuilt.dense.dim == 32 and rebuilt.embedded == 6


def test_corrupt_store_folder_is_rebuilt(tmp_path):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    PairStore.open(tmp_path / "pairs", _pairs(), HashingEncoder(), cache, progress=False)
    (tmp_path / "pairs" / "vectors.faiss").write_bytes(b"garbage")
    store = PairStore.open(tmp_path / "pairs", _pairs(), HashingEncoder(), cache, progress=False)
    assert store.dense.size == 6 and store.embedded == 0


def test_query_time_exclusion_never_returns_the_function_or_its_counterpart(tmp_path):
    store = PairStore.open(tmp_path / "pairs", _pairs(), HashingEncoder(), EmbeddingCache(tmp_path / "e.sqlite"),
                           progress=False)
    own = _pairs()[3]
    hits = store.query(own.java_signature, own.java_body, 10)
    assert hits[0].source_id == own.source_id           # identical text ranks first when not excluded
    for excluded in ({own.source_id}, {own.target_id}):
        hits = store.query(own.java_signature, own.java_body, 10, excluded)
        assert own.source_id not in {h.source_id for h in hits} and len(hits) == 5


def test_name_store_ranks_close_names(tmp_path):
    names = [NameEntry("target:P.Shapes.Circle.Area()", "target:P.Shapes.Circle", "method", "Area",
                       "public double Area()"),
             NameEntry("target:P.Shapes.Circle.Scale(double)", "target:P.Shapes.Circle", "method", "Scale",
                       "public Circle Scale(double factor)"),
             NameEntry("target:P.Util.Strings.Join(string[])", "target:P.Util.Strings", "method", "Join",
                       "public static string Join(string[] parts)")]
    store = NameStore.open(tmp_path / "names", names, HashingEncoder(), EmbeddingCache(tmp_path / "e.sqlite"),
                           progress=False)
    hits = store.query("target:P.Shapes.Circle", "public double ScaledArea(double factor)", 2,
                       {"target:P.Shapes.Circle.Area()"})
    assert [h.name for h in hits] == ["Scale", "Join"]
    assert hits[0].scores["bm25"]["rank"] == 1 and hits[0].scores["rrf"]["rank"] == 1


@dataclass
class _M:
    id: str
    signature: str
    body: str | None


@dataclass
class _Match:
    source_id: str
    target_id: str


def test_collect_pairs_skips_placeholders_and_excluded_ids():
    methods = {m.id: m for m in [
        _M("source:a", "int a()", "{ return x + 1; }"), _M("target:A", "int A()", "{ return x + 1; }"),
        _M("source:b", "int b()", "{ return x * 2; }"), _M("target:B", "int B()", "{ throw new NotImplementedException(); }"),
        _M("source:c", "int c()", "{ return x - 1; }"), _M("target:C", "int C()", "=> default;"),
        _M("source:d", "void d()", "{ }"), _M("target:D", "void D()", "{ Run(); }"),
        _M("source:e", "int e()", "{ return y; }"), _M("target:E", "int E()", "{ return y; }"),
        _M("source:f", "abstract int f()", None), _M("target:F", "int F()", "{ return 0; }"),
    ]}
    matches = [_Match(f"source:{c}", f"target:{c.upper()}") for c in "abcdef"]
    pairs = collect_pairs(methods, matches, frozenset())
    assert [(p.source_id, p.target_id) for p in pairs] == [("source:a", "target:A"), ("source:e", "target:E")]
    assert [p.source_id for p in collect_pairs(methods, matches, frozenset({"target:E"}))] == ["source:a"]


# --- with the real index and mapping of datasets/sample --------------------------------------------

from repotrans.cli import main as cli_main                          # noqa: E402
from repotrans.mapping.load import load_mapping                     # noqa: E402
from repotrans.index.store import Index                              # noqa: E402
from repotrans.retrieval.retriever import Retriever, scope_name      # noqa: E402
from repotrans.retrieval.stores import has_real_body                 # noqa: E402


def _index(workdir: Path, sample: Path = SAMPLE):
    index = Index.open(workdir)
    index.build(sample / "java", sample / "csharp", progress=False)
    return index, load_mapping(index)


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("sample")
    index, mapping = _index(workdir)
    return workdir, index, mapping


def _real_pairs(index, mapping) -> list:
    pairs = [m for m in mapping.method_matches
             if has_real_body(index.method(m.source_id).body) and has_real_body(index.method(m.target_id).body)]
    assert len(pairs) >= 5, "the sample should align several methods with real bodies"
    return pairs


def test_no_leakage_the_function_and_its_counterpart_are_never_returned(sample_index):
    workdir, index, mapping = sample_index
    retriever = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=HashingEncoder(), progress=False)
    pairs = _real_pairs(index, mapping)
    for match in pairs[::max(1, len(pairs) // 20)]:               # ~20 functions spread over the sample
        own = index.method(match.source_id)
        unguarded = retriever.pairs.query(own.signature, own.body, 3)
        assert match.source_id in {c.source_id for c in unguarded}    # the guard has something to stop
        result = retriever.retrieve(match.source_id, k=1000)
        assert result.candidates and result.names
        assert match.source_id not in {c.source_id for c in result.candidates}
        assert match.target_id not in {c.target_id for c in result.candidates}
        assert match.target_id not in {n.target_id for n in result.names}
        assert len(result.names) == sum(e.target_id != match.target_id for e in retriever.names.entries)


def test_retrieve_embeds_both_queries_in_one_call_with_the_same_results(sample_index):
    workdir, index, mapping = sample_index
    encoder = HashingEncoder()
    retriever = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=encoder, progress=False)
    match = _real_pairs(index, mapping)[0]
    source, target = index.method(match.source_id), index.method(match.target_id)
    retriever.retrieve(match.source_id, k=4)      # the stores embed their entries once (alone, this test is first)
    batches = []
    encode = encoder.encode
    encoder.encode = lambda texts: batches.append(list(texts)) or encode(texts)
    result = retriever.retrieve(match.source_id, k=4)
    texts = [PairStore.query_text(source.signature, source.body), NameStore.query_text(target.type_id, target.signature)]
    assert batches == [texts]
    own = {match.source_id, match.target_id}
    assert result.candidates == retriever.pairs.query(source.signature, source.body, 4, own)   # each store alone
    assert result.names == retriever.names.query(target.type_id, target.signature, 4, own)
    assert batches[1:] == [[texts[0]], [texts[1]]]


def test_evaluation_mode_leaves_the_set_out_of_the_stores_contents(sample_index):
    workdir, index, mapping = sample_index
    pairs = _real_pairs(index, mapping)
    eval_set = {pairs[0].source_id, pairs[1].target_id}            # one by Java id, one by C# id
    full = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=HashingEncoder(), progress=False)
    ev = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, exclude_ids=eval_set, encoder=HashingEncoder(),
                        progress=False)
    leaked = {pairs[0].source_id, pairs[0].target_id, pairs[1].source_id, pairs[1].target_id}
    folder = workdir / "retrieval" / scope_name(eval_set)
    assert folder.name.startswith("eval-") and ev.pairs.folder == folder / "pairs" and ev.names.folder == folder / "names"
    on_disk = json.loads((folder / "pairs" / "entries.json").read_text())
    names_on_disk = json.loads((folder / "names" / "entries.json").read_text())
    assert not leaked & ({e["source_id"] for e in on_disk} | {e["target_id"] for e in on_disk})
    assert not leaked & {e["target_id"] for e in names_on_disk}
    assert len(on_disk) == len(full.pairs) - 2 and len(names_on_disk) == len(full.names) - 2
    assert leaked <= {c.source_id for c in full.pairs.entries} | {c.target_id for c in full.pairs.entries}
    other = pairs[2].source_id
    result = ev.retrieve(other, k=1000)
    assert not leaked & ({c.source_id for c in result.candidates} | {c.target_id for c in result.candidates}
                         | {n.target_id for n in result.names})
    assert "built without 4 evaluation methods" in result.reason
    assert ev.embedded == 0                                          # every snippet was cached by `full`
    with pytest.raises(InputError, match=r"1 evaluation method id\(s\) are not in the index, e.g. 'source:typo\(\)'"):
        Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, exclude_ids={"source:typo()", pairs[0].source_id},
                       encoder=HashingEncoder(), progress=False)


def test_empty_body_and_unknown_id_and_bad_k(sample_index):
    workdir, index, mapping = sample_index
    retriever = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=HashingEncoder(), progress=False)
    empty = [m for m in index.all_methods("source") if not has_real_body(m.body)]
    assert empty
    for method in empty:
        result = retriever.retrieve(method.id)
        assert (result.candidates, result.names) == ([], [])
        assert "empty or placeholder body" in result.reason
    with pytest.raises(InputError, match="no Java method with id"):
        retriever.retrieve("source:no.such.Method()")
    with pytest.raises(InputError, match="k must be at least 1"):
        retriever.retrieve(_real_pairs(index, mapping)[0].source_id, k=0)


def test_empty_store_gives_an_empty_result_with_a_reason(tmp_path):
    (tmp_path / "empty_cs").mkdir()
    (tmp_path / "empty_cs" / "Empty.cs").write_text("namespace Other { public class Empty { } }\n")
    index = Index.open(tmp_path / "wd")
    index.build(SAMPLE / "java", tmp_path / "empty_cs", progress=False)
    retriever = Retriever.open(tmp_path / "wd", cache_dir=tmp_path / "wd" / "cache", index=index, mapping=load_mapping(index), encoder=HashingEncoder(),
                               progress=False)
    method = next(m for m in index.all_methods("source") if has_real_body(m.body))
    result = retriever.retrieve(method.id)
    assert (result.candidates, result.names) == ([], [])
    assert result.reason.startswith("the retrieval stores are empty")


def test_reindex_after_an_edit_embeds_only_the_changed_snippet(tmp_path):
    sample = tmp_path / "sample"
    shutil.copytree(SAMPLE, sample)
    index, mapping = _index(tmp_path / "wd", sample)
    enc = HashingEncoder()
    first = Retriever.open(tmp_path / "wd", cache_dir=tmp_path / "wd" / "cache", index=index, mapping=mapping, encoder=enc, progress=False)
    distinct = {e.text() for e in first.pairs.entries} | {e.text() for e in first.names.entries}
    assert first.embedded == len(distinct) == len(set(enc.calls)) == len(enc.calls)
    warm = Retriever.open(tmp_path / "wd", cache_dir=tmp_path / "wd" / "cache", index=index, mapping=mapping, encoder=enc, progress=False)
    assert (warm.pairs.embedded, warm.names.embedded) == (0, 0)
    victim = index.method(_real_pairs(index, mapping)[0].source_id)
    path = sample / "java" / victim.path
    text = path.read_text()
    path.write_text(text.replace(victim.body, victim.body[:-1] + "    // edited\n    }", 1))
    index.build(sample / "java", sample / "csharp", progress=False)
    mapping = load_mapping(index)
    calls = len(enc.calls)
    again = Retriever.open(tmp_path / "wd", cache_dir=tmp_path / "wd" / "cache", index=index, mapping=mapping, encoder=enc, progress=False)
    assert (again.pairs.embedded, again.names.embedded) == (1, 0)
    assert enc.calls[calls:] == [f"{victim.signature}\n{index.method(victim.id).body}"]


def test_cli_reports_a_model_mismatch_as_one_line(sample_index, capsys):
    workdir, index, mapping = sample_index
    Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=HashingEncoder(), progress=False)
    function = _real_pairs(index, mapping)[0].source_id
    assert cli_main(["--workdir", str(workdir), "retrieve", "--function", function, "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "built with embedding model 'hashing-64'" in err and "--rebuild" in err
    assert cli_main(["--workdir", str(workdir), "retrieve"]) == 2
    assert "give --function SIG" in capsys.readouterr().err


# --- with the real model (slow) ------------------------------------------------------------------

@pytest.fixture(scope="module")
def minilm():
    from repotrans.retrieval.encoders import TorchEncoder
    embedder = TorchEncoder(threads=1)  # the machine is shared: 1 thread beats 2 under load
    assert embedder.dim == 384
    return embedder


@pytest.mark.slow
def test_minilm_embeddings_are_normalised_and_code_aware(minilm):
    vectors = minilm.encode(["int sum(int[] xs) { int t = 0; for (int x : xs) t += x; return t; }",
                             "int Sum(int[] xs) { int t = 0; foreach (var x in xs) t += x; return t; }",
                             "void log(String message) { System.out.println(message); }"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


@pytest.mark.slow
def test_minilm_query_batch_of_unequal_lengths_matches_one_by_one(minilm, monkeypatch):
    """A long body and a short signature are embedded apart (no padding), with the same vectors."""
    body = "double total(List<Item> items) { double t = 0; for (Item i : items) { t += i.price() * i.qty(); " \
           "if (t > LIMIT) { throw new IllegalStateException(\"over the limit: \" + t); } } return t; }"
    short = "Acme.Shop.Cart: public double Total(IList<Item> items)"
    calls = []
    model = minilm._model()
    encode = model.encode
    monkeypatch.setattr(model, "encode", lambda texts, **kw: calls.append(len(texts)) or encode(texts, **kw))
    together = minilm.encode([body, short])
    assert calls == [1, 1]
    assert np.allclose(together, np.concatenate([encode([body], normalize_embeddings=True),
                                                 encode([short], normalize_embeddings=True)]), atol=1e-5)
    minilm.encode([short, short.replace("Total", "Sum")])
    assert calls == [1, 1, 2]                          # close lengths: one batch


@pytest.fixture(scope="module")
def minilm_workdir(minilm, tmp_path_factory):
    """The sample indexed, with stores built by the real model (its embedding cache is reused below)."""
    workdir = tmp_path_factory.mktemp("minilm")
    index, mapping = _index(workdir)
    retriever = Retriever.open(workdir, cache_dir=workdir / "cache", index=index, mapping=mapping, encoder=minilm,
                               progress=False)
    assert len(retriever.pairs) and len(retriever.names)          # both stores built (they open when used)
    return workdir, index, mapping


@pytest.mark.slow
def test_cli_retrieve_prints_candidates_with_route_scores(minilm_workdir, capsys):
    workdir, index, mapping = minilm_workdir
    match = _real_pairs(index, mapping)[0]
    argv = ["--workdir", str(workdir), "retrieve", "--function", match.source_id, "--k", "3", "--quiet",
            "--embedding-backend", "torch"]
    assert cli_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["candidates"]) == 3 and len(out["names"]) == 3
    assert [c["scores"]["rrf"]["rank"] for c in out["candidates"]] == [1, 2, 3]
    assert all({"bm25", "dense"} & set(c["scores"]) for c in out["candidates"] + out["names"])
    assert match.source_id not in {c["source_id"] for c in out["candidates"]}
    meta = json.loads((workdir / "retrieval" / "all" / "pairs" / "meta.json").read_text())
    assert (meta["model"], meta["dim"]) == ("all-MiniLM-L6-v2", 384)
    assert cli_main(argv) == 0 and json.loads(capsys.readouterr().out) == out     # warm: same answer


@pytest.mark.slow
def test_a_workdir_opens_its_retriever_once_over_the_index_it_holds(minilm_workdir, tmp_path):
    from repotrans.retrieval.settings import RetrievalConfig
    from repotrans.agents.workdir import Workdir
    from repotrans.retrieval import retriever as module
    sample = tmp_path / "sample"
    shutil.copytree(SAMPLE, sample)
    index, mapping = _index(tmp_path / "wd", sample)
    function = _real_pairs(index, mapping)[0].source_id
    cache = minilm_workdir[0] / "cache"                        # another workdir's: same snippets
    work = Workdir(tmp_path / "wd", index, mapping, judge=None)
    settings = RetrievalConfig(backend="torch", pool=0)
    opened = work.retriever(settings, cache)
    assert opened.index is index and opened.mapping is mapping      # the caller's, not opened again
    first = opened.retrieve(function, k=2, names=False)
    assert opened.embedded == 0                                 # everything came from the shared cache
    assert work.retriever(settings, cache) is opened and opened.retrieve(function, k=2, names=False) == first
    pooled = work.retriever(RetrievalConfig(backend="torch", pool=5), cache)
    assert pooled is not opened                                 # other settings
    assert pooled.pairs.encoder is not opened.pairs.encoder      # ... and encoder, but the run's one model
    assert pooled.pairs.encoder._model() is opened.pairs.encoder._model() and pooled.pairs.encoder.models is work.caches.models
    once = module.retrieve(tmp_path / "wd", function, k=2, backend="torch", cache_dir=cache, names=False,
                           progress=False)
    assert once == first                                        # the one-shot path gives the same answer


@pytest.mark.slow
def test_onnx_backend_gives_the_torch_vectors_and_int8_stays_close(minilm, tmp_path):
    """The ONNX export (made here from the shipped weights) computes what torch computes, without torch."""
    from repotrans.retrieval.encoders import make_encoder
    texts = ["int sum(int[] xs) { int t = 0; for (int x : xs) t += x; return t; }",
             "void log(String message) { System.out.println(message); }",
             "Acme.Shop.Cart: public double Total(IList<Item> items)", "x"]
    reference = minilm.encode(texts)
    onnx = make_encoder(backend="onnx", cache_dir=tmp_path)
    assert onnx.key == "all-MiniLM-L6-v2@onnx" and onnx.dim == 384
    assert np.allclose(onnx.encode(texts), reference, atol=1e-4)        # batched by length, padded
    assert list((tmp_path / "models").glob("*.onnx"))                   # exported once into the cache folder
    int8 = make_encoder(backend="onnx-int8", cache_dir=tmp_path).encode(texts)
    assert (int8 * reference).sum(axis=1).min() > 0.8


def test_encoders_load_a_model_once_per_loaded_models_the_run_context_owns():
    """No process-wide model cache: encoders given the run's LoadedModels share one load; an encoder
    made without it (another run) loads its own."""
    from repotrans.retrieval.encoders import LoadedModels, make_encoder

    models, loads = LoadedModels(), []

    def load():
        loads.append(1)
        return object()

    first = models.get(("onnx", "m"), load)
    assert models.get(("onnx", "m"), load) is first and len(loads) == 1
    assert LoadedModels().get(("onnx", "m"), load) is not first and len(loads) == 2
    shared = make_encoder(backend="onnx-int8", models=models)
    assert shared.models is models and make_encoder(backend="torch", models=models).models is models
    assert make_encoder(backend="onnx").models is not models
