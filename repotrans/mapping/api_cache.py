"""The learned API map of an index: built from the mapping's method pairs and cached beside the mapping
in the index's SQLite file, under the mapping's fingerprint (a re-index, a code or override change
rebuilds both)."""
from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from repotrans.mapping import mapping_cache
from repotrans.mapping.api_map import ApiMap, Observation, observe
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.overrides import MappingOverrides

if TYPE_CHECKING:
    from repotrans.index.store import Index

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_map_meta (fingerprint TEXT NOT NULL, mapped TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_map_obs (
    key TEXT NOT NULL, template TEXT NOT NULL, general INTEGER NOT NULL, conditions TEXT NOT NULL,
    source_id TEXT NOT NULL, target_id TEXT NOT NULL, java TEXT NOT NULL, cs TEXT NOT NULL);
"""


def _simple_class(type_id: str) -> str:
    return type_id.split(":", 1)[-1].rsplit(".", 1)[-1]


def build_api_map(index: Index, mapping: Mapping) -> ApiMap:
    """Observations of every aligned method pair with a body on both sides; `mapped` holds the call
    keys of every Java method the mapping pairs (its calls are the resolver's to translate)."""
    observations: list[Observation] = []
    fields_of: dict[str, dict[str, str]] = {}
    mapped: set[str] = set()
    for match in mapping.method_matches:
        java, cs = index.method(match.source_id), index.method(match.target_id)
        if java is None or cs is None:
            continue
        owner = _simple_class(java.type_id)
        argc = len(java.params)
        mapped |= {f"{owner}.{java.name}/{argc}", f"{owner}#{java.name}/{argc}"}
        if java.kind == "constructor":
            mapped.add(f"new {owner}/{argc}")
        if not java.body or not cs.body:
            continue
        if java.type_id not in fields_of:
            fields_of[java.type_id] = {f.name: f.type for f in index.fields(java.type_id)}
        observations += observe(java, cs, fields_of[java.type_id], owner)
    return ApiMap(observations, frozenset(mapped))


def load_api_map(index: Index, mapping: Mapping, overrides: MappingOverrides | None = None) -> ApiMap:
    """The API map of this index and mapping: from the cache when the mapping's fingerprint is unchanged."""
    fp = mapping_cache.fingerprint(index, overrides or MappingOverrides())
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
    rows = conn.execute("SELECT key, template, general, conditions, source_id, target_id, java, cs "
                        "FROM api_map_obs ORDER BY rowid").fetchall()
    observations = [Observation(k, t, bool(g), tuple((int(i), s) for i, s in json.loads(c)), sid, tid, j, cs)
                    for k, t, g, c, sid, tid, j, cs in rows]
    return ApiMap(observations, frozenset(json.loads(meta[1])))


def _write(conn: sqlite3.Connection, fp: str, api: ApiMap) -> None:
    conn.executescript(_SCHEMA)
    rows = [(o.key, o.template, int(o.general), json.dumps(o.conditions), o.source_id, o.target_id, o.java, o.cs)
            for o in api.observations]
    with conn:
        conn.execute("DELETE FROM api_map_meta")
        conn.execute("DELETE FROM api_map_obs")
        conn.execute("INSERT INTO api_map_meta VALUES (?, ?)", (fp, json.dumps(sorted(api.mapped))))
        conn.executemany("INSERT INTO api_map_obs VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
