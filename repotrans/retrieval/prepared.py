"""Prepared stores, per machine: a store's entries and BM25 index, kept beside the embedding cache.

Opening a store on a large port collects its entries from the index (placeholder checks over every
body), fingerprints them and tokenises them all for BM25: seconds of CPU that every run folder of the
same index paid again. A prepared store keeps the result under the user cache folder
(retrieval-stores/<key>/: entries.json, bm25.npz, meta.json), keyed by everything that decides it:
the index's fingerprint (every indexed file's hash, the index and mapping code, the mapping
overrides), the store kind, the encoder, the evaluation set and the retrieval code. A second run
folder of the same index reads it instead of recomputing it. Folders are written whole and renamed
into place (concurrent writers: the first wins), and only the most recently used few are kept.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path

from repotrans.retrieval.bm25 import Bm25Index

PREPARED_DIR = "retrieval-stores"
KEEP = 12                    # prepared stores kept per machine (most recently used first)
_FORMAT = 1


@lru_cache(maxsize=1)
def code_digest() -> str:
    """Hash of the retrieval package's code (what collects, tokenises and scores entries)."""
    h = hashlib.sha256()
    for entry in sorted(resources.files("repotrans.retrieval").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            h.update(f"\n{entry.name}\n".encode())
            h.update(entry.read_bytes())
    return h.hexdigest()


class PreparedStore:
    """One slot of the per-machine cache: the prepared form of one store of one index state."""

    def __init__(self, folder: Path):
        self.folder = folder

    @classmethod
    def slot(cls, cache_dir: Path, kind: str, encoder_key: str, index_state: str,
             excluded: Iterable[str]) -> PreparedStore:
        """The slot for a store of `kind` over the index whose fingerprint is `index_state`."""
        key = hashlib.sha256("\0".join([str(_FORMAT), code_digest(), kind, encoder_key, index_state,
                                        *sorted(excluded)]).encode("utf-8")).hexdigest()[:32]
        return cls(Path(cache_dir) / PREPARED_DIR / key)

    @property
    def entries_file(self) -> Path:
        return self.folder / "entries.json"

    def load(self) -> tuple[list[dict], Bm25Index, str] | None:
        """(entries as dicts, BM25 index, entries fingerprint), or None when absent or unreadable."""
        try:
            meta = json.loads((self.folder / "meta.json").read_text(encoding="utf-8"))
            entries = json.loads(self.entries_file.read_text(encoding="utf-8"))
            bm25 = Bm25Index.load(self.folder / "bm25.npz")
        except (OSError, ValueError, KeyError):
            return None
        if meta.get("format") != _FORMAT or len(entries) != meta.get("count") or bm25.size != len(entries):
            return None
        os.utime(self.folder)                 # recently used: kept by prune()
        return entries, bm25, meta["fingerprint"]

    def save(self, entries_file: Path, bm25: Bm25Index, fingerprint: str, count: int) -> None:
        """Keep a store's entries.json (copied from `entries_file`) and BM25 index; a slot another
        process filled first is left as it is."""
        if self.folder.is_dir():
            return
        tmp = self.folder.with_name(f"{self.folder.name}.{os.getpid()}.tmp")
        try:
            tmp.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(entries_file, tmp / "entries.json")
            bm25.save(tmp / "bm25.npz")
            (tmp / "meta.json").write_text(json.dumps({"format": _FORMAT, "fingerprint": fingerprint,
                                                       "count": count}), encoding="utf-8")
            os.rename(tmp, self.folder)
        except OSError:                       # taken by another writer, or no room: nothing lost
            shutil.rmtree(tmp, ignore_errors=True)
            return
        prune(self.folder.parent)


def prune(home: Path, keep: int = KEEP) -> None:
    """Delete all but the `keep` most recently used prepared stores (and stale temporary folders)."""
    now = time.time()
    slots = []
    for path in home.iterdir():
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        if path.name.endswith(".tmp"):
            if now - mtime > 3600:
                shutil.rmtree(path, ignore_errors=True)
        elif path.is_dir():
            slots.append((mtime, path))
    for _, path in sorted(slots, reverse=True)[keep:]:
        shutil.rmtree(path, ignore_errors=True)
