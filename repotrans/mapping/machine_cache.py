"""Mappings kept per machine, beside the embeddings and the baselines: one SQLite file per fingerprint
(mapping_cache.fingerprint: both sides' file hashes, the mapping code, the overrides) under
<cache root>/mappings. A dataset built again in a new folder indexes the same repositories anew; its
mapping is then read here instead of built (NPOI against POI: 4.6 s of Python, beside the port's build)."""
from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path

from repotrans.mapping import mapping_cache
from repotrans.mapping.mapping import Mapping

CACHE_FOLDER = "mappings"
KEEP = 16                   # the files kept: the newest written or read


class MachineMappings:
    """One SQLite file per fingerprint under `folder` (None: nothing kept)."""

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None

    @classmethod
    def under(cls, cache_root: Path | str | None) -> "MachineMappings":
        """The cache beside the embeddings: <cache root>/mappings (None: no cache on disk)."""
        return cls(Path(cache_root) / CACHE_FOLDER if cache_root else None)

    def _path(self, fp: str) -> Path:
        return self.folder / f"{fp[:40]}.sqlite"

    def get(self, fp: str) -> Mapping | None:
        """The mapping kept for `fp`, or None (none kept, or a file that does not read as one)."""
        if self.folder is None or not (path := self._path(fp)).is_file():
            return None
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                found = mapping_cache.read_from(conn, fp)
            finally:
                conn.close()
        except sqlite3.Error:
            return None
        if found is not None:
            os.utime(path)                          # read: kept as the newest
        return found

    def put(self, fp: str, mapping: Mapping) -> None:
        """Keep `mapping` for `fp` (written whole, then moved in place), dropping the oldest past KEEP."""
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{fp[:40]}.{uuid.uuid4().hex[:8]}.tmp"
        conn = sqlite3.connect(tmp)
        try:
            mapping_cache.write_to(conn, fp, mapping)
        finally:
            conn.close()
        tmp.replace(self._path(fp))
        kept = sorted(self.folder.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP:]:
            old.unlink(missing_ok=True)
