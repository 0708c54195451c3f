"""The per-machine embedding cache: one SQLite file of content-addressed vectors.

A row's key is sha256(encoder key + token limit + text), where the encoder key names the model and
the backend that computed it (torch, onnx, ...): any workdir, run folder, dataset build or Ray node
on the machine that embeds the same text with the same encoder reads the same row. The file lives
in the user cache folder beside the response cache (the CLI resolves that folder and passes it
down); WAL journaling and a busy timeout let several processes read and write it at once. Without a
folder (`--no-cache`) the cache lives in memory for the process only.
"""
from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

CACHE_FILE = "embeddings.sqlite"
BUSY_TIMEOUT_S = 60.0
_SCHEMA = ("CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, encoder TEXT NOT NULL, "
           "dim INTEGER NOT NULL, vector BLOB NOT NULL)")


def content_key(encoder_key: str, max_tokens: int, text: str) -> str:
    """Cache key of one snippet under one encoder (model + backend) and token limit."""
    return hashlib.sha256(f"{encoder_key}\0{max_tokens}\0{text}".encode("utf-8")).hexdigest()


class EmbeddingCache:
    """key -> float32 vector; keys already carry the encoder and token limit.

    `path` None keeps the vectors in memory (nothing outlives the process)."""

    def __init__(self, path: Path | None):
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:" if path is None else str(path), timeout=BUSY_TIMEOUT_S,
                                   check_same_thread=False)
        if path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()

    @classmethod
    def in_folder(cls, folder: Path | None) -> EmbeddingCache:
        """The cache file in the user cache `folder`; in memory when `folder` is None (--no-cache)."""
        return cls(None if folder is None else Path(folder) / CACHE_FILE)

    def get_many(self, keys: Sequence[str], dim: int) -> dict[str, np.ndarray]:
        """Cached vectors of length `dim` for the keys that have one."""
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                rows = self._db.execute("SELECT key, vector FROM embeddings WHERE dim = ? AND key IN "
                                        f"({','.join('?' * len(chunk))})", [dim, *chunk])
                found.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in rows)
        return found

    def put_many(self, encoder_key: str, items: dict[str, np.ndarray]) -> None:
        """Store vectors (a key already present keeps its row: the same text gives the same vector)."""
        if not items:
            return
        rows = [(k, encoder_key, len(v), np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()]
        with self._lock, self._db:
            self._db.executemany("INSERT OR IGNORE INTO embeddings VALUES (?, ?, ?, ?)", rows)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def cache_report(folder: Path | None) -> str:
    """One line for `doctor`: where the embedding cache is, its size on disk and rows per encoder."""
    if folder is None:
        return "embedding cache: off (--no-cache): every process embeds again"
    path = Path(folder) / CACHE_FILE
    if not path.is_file():
        return f"embedding cache: {path} (empty: nothing embedded on this machine yet)"
    size = sum(p.stat().st_size for p in path.parent.glob(CACHE_FILE + "*") if p.is_file())
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            counts = db.execute("SELECT encoder, COUNT(*) FROM embeddings GROUP BY encoder ORDER BY 2 DESC").fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return f"embedding cache: {path}, {size / 2**20:.1f} MiB, unreadable: {exc}"
    rows = ", ".join(f"{n} by {enc}" for enc, n in counts) or "no vectors"
    return f"embedding cache: {path}, {size / 2**20:.1f} MiB, {rows}"
