"""A run folder's files read while a batch may still be writing them."""
from __future__ import annotations

import sqlite3
from pathlib import Path


def result_rows(db_path: Path) -> int:
    """Rows of results.sqlite so far (0 when it or its table is not there yet, or a write holds it)."""
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=0.1)
        try:
            return db.execute("SELECT count(*) FROM results").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:
        return 0
