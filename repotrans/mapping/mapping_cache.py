"""The mapping, cached in the index's SQLite file (own tables), keyed by a fingerprint of the index.

The fingerprint covers every indexed file's hash on both sides, every file of the index and mapping
packages (code and data, as installed) and the overrides, so a re-index that changed a file, or any
change of the code, its tables or the overrides, rebuilds it.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from repotrans.mapping.mapping import Mapping, MethodMatch, TypeMatch
from repotrans.index.model import SIDES
from repotrans.mapping.overrides import MappingOverrides

if TYPE_CHECKING:
    from repotrans.index.store import Index

# The packages whose code decides a mapping (tests/test_layers.py checks that mapping imports no other
# part of repotrans that could change one): their every file, data included, keys the cache.
CODE_PACKAGES = ("repotrans.index", "repotrans.mapping")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS mapping_meta (
    fingerprint TEXT NOT NULL, namespace_votes TEXT NOT NULL, counts TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mapping_namespace (package TEXT PRIMARY KEY, namespace TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mapping_match (
    kind TEXT NOT NULL,             -- 'type' | 'method'
    source_id TEXT NOT NULL,
    target_id TEXT,                 -- NULL: unmatched, `reason` says why
    confidence REAL,
    reason TEXT NOT NULL,
    evidence TEXT NOT NULL,         -- JSON list of strings
    PRIMARY KEY (kind, source_id));
"""
_COLUMNS = {"mapping_meta": ["fingerprint", "namespace_votes", "counts"],      # the layout _SCHEMA makes
            "mapping_namespace": ["package", "namespace"],
            "mapping_match": ["kind", "source_id", "target_id", "confidence", "reason", "evidence"]}


@lru_cache(maxsize=1)
def code_digest() -> str:
    """Hash of every file of CODE_PACKAGES as installed (importlib.resources), by relative path."""
    h = hashlib.sha256()
    for package in CODE_PACKAGES:
        for rel, data in sorted(_package_files(resources.files(package), package)):
            h.update(f"\n{rel}\t{len(data)}\n".encode())
            h.update(data)
    return h.hexdigest()


def _package_files(folder: Traversable, rel: str) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for entry in folder.iterdir():
        if entry.name == "__pycache__" or entry.name.endswith((".pyc", ".pyo")):
            continue
        if entry.is_dir():
            out += _package_files(entry, f"{rel}/{entry.name}")
        elif entry.is_file():
            out.append((f"{rel}/{entry.name}", entry.read_bytes()))
    return out


def fingerprint(index: Index, overrides: MappingOverrides | None = None) -> str:
    """Hash of every indexed file (side, path, sha256), the index and mapping code (code_digest) and the overrides."""
    h = hashlib.sha256(code_digest().encode())
    if overrides:
        h.update(overrides.digest().encode())
    for side in SIDES:
        for f in sorted(index.files(side), key=lambda f: f.path):
            h.update(f"\n{side}\t{f.path}\t{f.sha256}".encode())
    return h.hexdigest()


def read(index: Index, fp: str) -> Mapping | None:
    """The mapping cached in the index's file if it was built for this fingerprint."""
    return read_from(index.conn, fp)


def read_from(conn: sqlite3.Connection, fp: str) -> Mapping | None:
    """The mapping cached in `conn`'s tables if it was built for this fingerprint."""
    if _layouts(conn) != _COLUMNS:
        return None                     # no tables yet, or any of an older version's: no cache (reading never writes)
    meta = conn.execute("SELECT fingerprint, namespace_votes, counts FROM mapping_meta").fetchone()
    if meta is None or meta[0] != fp:
        return None
    namespace_map = dict(conn.execute("SELECT package, namespace FROM mapping_namespace"))
    matches: dict[str, list] = {"type": [], "method": []}
    unmatched: dict[str, dict[str, str]] = {"type": {}, "method": {}}
    cls = {"type": TypeMatch, "method": MethodMatch}
    rows = conn.execute("SELECT kind, source_id, target_id, confidence, reason, evidence FROM mapping_match "
                        "ORDER BY rowid").fetchall()
    for kind, sid, tid, conf, reason, evidence in rows:
        if tid is None:
            unmatched[kind][sid] = reason
        else:
            matches[kind].append(cls[kind](sid, tid, conf, reason, tuple(json.loads(evidence))))
    return Mapping(namespace_map, matches["type"], matches["method"], json.loads(meta[1]),
                   unmatched["type"], unmatched["method"], json.loads(meta[2]))


def write(index: Index, fp: str, mapping: Mapping) -> None:
    """Replace the mapping cached in the index's file with this one."""
    write_to(index.conn, fp, mapping)


def write_to(conn: sqlite3.Connection, fp: str, mapping: Mapping) -> None:
    """Replace the mapping cached in `conn`'s tables with this one."""
    if _layouts(conn) != _COLUMNS:                    # none yet, or any table as an older version made it
        for table in _COLUMNS:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.executescript(_SCHEMA)
    rows = [("type", m.source_id, m.target_id, m.confidence, m.reason, json.dumps(m.evidence))
            for m in mapping.type_matches]
    rows += [("type", sid, None, None, r, "[]") for sid, r in mapping.unmatched_types.items()]
    rows += [("method", m.source_id, m.target_id, m.confidence, m.reason, json.dumps(m.evidence))
             for m in mapping.method_matches]
    # a method both matched and named unmatched (a later claim on its target lost): the match stands,
    # as Mapping.target_method answers (ICU4N's BreakIterator.getSentenceInstance() crashed the write)
    matched = {m.source_id for m in mapping.method_matches}
    rows += [("method", sid, None, None, r, "[]") for sid, r in mapping.unmatched_methods.items() if sid not in matched]
    with conn:
        conn.execute("DELETE FROM mapping_meta")
        conn.execute("DELETE FROM mapping_namespace")
        conn.execute("DELETE FROM mapping_match")
        conn.execute("INSERT INTO mapping_meta VALUES (?, ?, ?)",
                     (fp, json.dumps(mapping.namespace_votes), json.dumps(mapping.counts)))
        conn.executemany("INSERT INTO mapping_namespace VALUES (?, ?)", mapping.namespace_map.items())
        conn.executemany("INSERT INTO mapping_match VALUES (?, ?, ?, ?, ?, ?)", rows)


def _layouts(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The cache tables that exist, each with its columns in order."""
    found = {table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")] for table in _COLUMNS}
    return {table: columns for table, columns in found.items() if columns}
