"""The context windows servers named in a 400, remembered per base URL and model in the user cache
(`[model] cache_dir`/server-windows.json), so a later process fits its first call instead of paying
the 400 and a refit again. A server that says its window (/props, /api/show, /v1/models) is asked
first; a remembered window only replaces the default guess, and a new 400 overwrites it."""
from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path

FILE = "server-windows.json"


class WindowMemory:
    """Windows learned from 400s, keyed by base URL and model name, in one JSON file."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / FILE
        self._lock = threading.Lock()

    @staticmethod
    def key(base_url: str, model: str | None) -> str:
        return f"{base_url.rstrip('/')} {model or ''}"

    def recall(self, base_url: str, model: str | None) -> int | None:
        """The window remembered for this server and model, or None."""
        entry = self._read().get(self.key(base_url, model))
        tokens = entry.get("tokens") if isinstance(entry, dict) else None
        return tokens if isinstance(tokens, int) and tokens > 0 else None

    def remember(self, base_url: str, model: str | None, tokens: int) -> None:
        """Keep `tokens` for this server and model (the file is replaced whole: readers never see half)."""
        with self._lock:
            data = self._read()
            data[self.key(base_url, model)] = {"tokens": int(tokens), "learned_at": round(time.time())}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".server-windows-")
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(data, fh, indent=1, sort_keys=True)
                os.replace(tmp, self.path)
            except OSError:         # a read-only cache folder: the window is known for this process only
                pass

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}
