"""Dense route: sentence embeddings (from the per-machine cache, else computed) in a faiss
inner-product index.

Embeddings are L2-normalised, so inner product is cosine similarity. `embed_cached` computes only
the snippets the cache lacks, in batches, with a progress bar that says what it embeds and its ETA;
computed vectors are saved every SAVE_EVERY_S, so an interrupted build keeps what it embedded: Ctrl-C
stops it at once (the batch under way is dropped); the run's `stop` event (agents.workdir.RunCaches.stop,
set by an executor whose batch was interrupted) stops it after the batch under way.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import faiss
import numpy as np

from repotrans.errors import RepotransError
from repotrans.retrieval.embed_cache import EmbeddingCache, content_key
from repotrans.retrieval.encoders import BATCH_SIZE, MAX_TOKENS, Encoder
from repotrans.retrieval.progress import progress_bar

SAVE_EVERY_S = 2.0           # computed vectors are written to the cache at least this often
WAIT_STEP_S = 0.05           # the main thread checks for Ctrl-C this often while a batch is embedded


class EmbeddingStopped(RepotransError):
    """Embedding was asked to stop; what was computed before is in the cache."""


def embed_cached(encoder: Encoder, cache: EmbeddingCache, texts: Sequence[str], progress: bool = True,
                 what: str = "snippets", stop: threading.Event | None = None) -> tuple[np.ndarray, int]:
    """Embeddings for `texts` (rows in order) and how many had to be computed. `what` names the
    snippets for the progress bar ("Java method pairs", ...); once `stop` is set (the run's), the loop
    stops after the batch under way (EmbeddingStopped)."""
    keys = [content_key(encoder.key, MAX_TOKENS, t) for t in texts]
    found = cache.get_many(keys, encoder.dim) if keys else {}
    missing = list(dict.fromkeys(k for k in keys if k not in found))
    if missing:
        text_of = dict(zip(keys, texts))
        missing.sort(key=lambda k: len(text_of[k]))         # batches of similar length pad little
        pending: dict = {}
        saved = time.monotonic()
        bar = progress_bar(len(missing), f"embedding {len(missing)} {what} not in the cache ({encoder.key})",
                           progress)
        try:
            for start in range(0, len(missing), BATCH_SIZE):
                if stop is not None and stop.is_set():
                    raise EmbeddingStopped(f"embedding stopped after {start} of {len(missing)} {what}; "
                                           "they are cached, the next run starts from there")
                chunk = missing[start:start + BATCH_SIZE]
                vectors = _encode(encoder, [text_of[k] for k in chunk])
                new = dict(zip(chunk, vectors))
                pending.update(new)
                found.update(new)
                bar.update(len(chunk))
                if time.monotonic() - saved >= SAVE_EVERY_S:
                    cache.put_many(encoder.key, pending)
                    pending, saved = {}, time.monotonic()
        finally:                    # Ctrl-C included: what was computed is kept
            cache.put_many(encoder.key, pending)
            bar.close()
    dim = encoder.dim
    matrix = np.zeros((len(keys), dim), dtype=np.float32)
    for row, key in enumerate(keys):
        matrix[row] = found[key]
    return matrix, len(missing)


def _encode(encoder: Encoder, texts: list[str]) -> np.ndarray:
    """encoder.encode(texts); in the main thread, computed by a helper thread while the main thread
    waits in short steps, so that Ctrl-C (delivered to the main thread only, and only between Python
    steps: a batch inside ONNX Runtime or torch would hold it for seconds) interrupts at once. The
    abandoned batch finishes in the background and is dropped."""
    if threading.current_thread() is not threading.main_thread():
        return encoder.encode(texts)
    done = threading.Event()
    out: dict[str, object] = {}

    def work() -> None:
        try:
            out["vectors"] = encoder.encode(texts)
        except BaseException as exc:                # handed to the waiting thread
            out["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="repotrans-embed", daemon=True).start()
    while not done.wait(WAIT_STEP_S):
        pass
    if "error" in out:
        raise out["error"]
    return out["vectors"]


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
