"""The learned API map of an index: built from the mapping's method pairs and cached beside the mapping
in the index's SQLite file, keyed by the index's fingerprint (files and code, as the mapping's) and the
method pairs it was learned from (a re-index, a code change or an override that moves a pair rebuilds it)."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import TYPE_CHECKING

from repotrans.index.typename import simple_name
from repotrans.mapping import mapping_cache
from repotrans.mapping.api_map import ApiMap, Observation, observe
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.wrapped_types import declared_types

if TYPE_CHECKING:
    from repotrans.index.store import Index

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_map_meta (fingerprint TEXT NOT NULL, mapped TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_map_obs (
    key TEXT NOT NULL, template TEXT NOT NULL, general INTEGER NOT NULL, conditions TEXT NOT NULL,
    source_id TEXT NOT NULL, target_id TEXT NOT NULL, java TEXT NOT NULL, cs TEXT NOT NULL,
    arg_type TEXT NOT NULL);
"""




def _declaring(index: Index, type_id: str) -> dict[str, str]:
    """"name/argc" -> simple name of the class declaring it, for the methods a Java class inherits from
    its project supertypes (its own are keyed by itself already)."""
    decl = index.type(type_id)
    if decl is None:
        return {}
    out: dict[str, str] = {}
    own = {f"{m.name}/{len(m.params)}" for m in index.methods(type_id)}
    for base in index.supertypes(decl):
        for m in index.methods(base.id):
            key = f"{m.name}/{len(m.params)}"
            if key not in own:
                out.setdefault(key, simple_name(base.id))
    return out


def build_api_map(index: Index, mapping: Mapping) -> ApiMap:
    """Observations of every aligned method pair with a body on both sides, and of the JDK types paired
    declarations use (wrapped_types.py); `mapped` holds the call keys of every Java method the mapping
    pairs (its calls are the resolver's to translate)."""
    observations: list[Observation] = []
    fields_of: dict[str, dict[str, str]] = {}
    declaring_of: dict[str, dict[str, str]] = {}
    mapped: set[str] = set()
    for match in mapping.method_matches:
        java, cs = index.method(match.source_id), index.method(match.target_id)
        if java is None or cs is None:
            continue
        owner = simple_name(java.type_id)
        argc = len(java.params)
        mapped |= {f"{owner}.{java.name}/{argc}", f"{owner}#{java.name}/{argc}"}
        if java.kind == "constructor":
            mapped.add(f"new {owner}/{argc}")
        if not java.body or not cs.body:
            continue
        if java.type_id not in fields_of:
            fields_of[java.type_id] = {f.name: f.type for f in index.fields(java.type_id)}
            declaring_of[java.type_id] = _declaring(index, java.type_id)
        observations += observe(java, cs, fields_of[java.type_id], owner, declaring_of[java.type_id])
    return ApiMap(observations + declared_types(index, mapping), frozenset(mapped))


def api_fingerprint(index: Index, mapping: Mapping) -> str:
    """The index's fingerprint (files, index and mapping code) and the method pairs the map learns from."""
    h = hashlib.sha256(mapping_cache.fingerprint(index).encode())
    for m in sorted(mapping.method_matches, key=lambda m: m.source_id):
        h.update(f"\n{m.source_id}\t{m.target_id}".encode())
    return h.hexdigest()


def load_api_map(index: Index, mapping: Mapping) -> ApiMap:
    """The API map of this index and mapping: from the cache when neither changed, else built and cached."""
    fp = api_fingerprint(index, mapping)
    cached = _read(index.conn, fp)
    if cached is not None:
        return cached
    api = build_api_map(index, mapping)
    _write(index.conn, fp, api)
    return api


def _read(conn: sqlite3.Connection, fp: str) -> ApiMap | None:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'api_map_meta'").fetchone() is None:
        return None
    meta = conn.execute("SELECT fingerprint, mapped FROM api_map_meta").fetchone()
    if meta is None or meta[0] != fp:
        return None
    try:
        rows = conn.execute("SELECT key, template, general, conditions, source_id, target_id, java, cs, arg_type "
                            "FROM api_map_obs ORDER BY rowid").fetchall()
    except sqlite3.OperationalError:                  # a cache table of an older layout
        return None
    observations = [Observation(k, t, bool(g), tuple((int(i), s) for i, s in json.loads(c)), sid, tid, j, cs, a)
                    for k, t, g, c, sid, tid, j, cs, a in rows]
    return ApiMap(observations, frozenset(json.loads(meta[1])))


def _write(conn: sqlite3.Connection, fp: str, api: ApiMap) -> None:
    columns = [r[1] for r in conn.execute("PRAGMA table_info(api_map_obs)")]
    if columns and "arg_type" not in columns:
        conn.execute("DROP TABLE api_map_obs")       # written by an older version
    conn.executescript(_SCHEMA)
    rows = [(o.key, o.template, int(o.general), json.dumps(o.conditions), o.source_id, o.target_id, o.java, o.cs,
             o.arg_type) for o in api.observations]
    with conn:
        conn.execute("DELETE FROM api_map_meta")
        conn.execute("DELETE FROM api_map_obs")
        conn.execute("INSERT INTO api_map_meta VALUES (?, ?)", (fp, json.dumps(sorted(api.mapped))))
        conn.executemany("INSERT INTO api_map_obs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
