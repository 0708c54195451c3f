"""The index tables' rows: a parsed file as the rows of its tables (`file_rows`, run in the build's
worker processes) and every row read back into the symbol model (`load`, the lookups' Snapshot)."""
from __future__ import annotations

import gc
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from repotrans.index.lookup import Snapshot
from repotrans.index.model import Field, FileInfo, Import, Method, Param, Side, TypeDecl
from repotrans.index.parse import parse_file


def _json_encoder() -> Callable[[object], str]:
    """Compact-enough JSON of the rows' lists. One C encoder serves every row: json's encode() builds
    a new one per call, which is half its cost on these small lists."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:                                  # Python without the C accelerator
        return json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
    encoder = make(None, None, json.encoder.c_encode_basestring, None, ": ", ", ", False, False, True)
    return lambda obj: "".join(encoder(obj, 0))


_ENCODE = _json_encoder()


FileRows = tuple[tuple, list[tuple], list[tuple], list[tuple]]   # files, types, fields, methods rows


def file_rows(job: tuple[int, Side, str, bytes, str]) -> FileRows:
    """Parse one file into its table rows (runs in a worker process for large builds)."""
    file_id, side, path, data, sha = job
    p = parse_file(side, path, data, sha)
    info = p.info
    return (
        (file_id, side, path, sha, _ENCODE(info.namespaces),
         _ENCODE([[i.text, i.name, i.static, i.alias, i.wildcard] for i in info.imports]),
         info.syntax_errors, int(p.decode_errors)),
        [(file_id, n, t.id, t.kind, t.name, t.qualified_name, t.container, t.outer_id, t.start_line,
          t.end_line, _ENCODE([t.type_params, t.bases, t.modifiers, t.annotations, t.enum_constants]))
         for n, t in enumerate(p.types)],
        [(file_id, n, f.id, f.type_id, f.name, f.type, f.initializer, f.line, _ENCODE([f.modifiers, f.annotations]))
         for n, f in enumerate(p.fields)],
        [(file_id, n, m.id, m.type_id, m.kind, m.name, m.return_type, m.signature, m.body, m.start_line,
          m.end_line, m.start_byte, m.end_byte, m.body_start_byte, m.body_end_byte,
          _ENCODE([[[a.name, a.type, a.varargs, a.modifiers] for a in m.params], m.modifiers, m.annotations,
                   m.type_params])) for n, m in enumerate(p.methods)],
    )


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while building many acyclic objects (halves the load time; forked workers
    inherit the pause)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# ---- rows -> model ---------------------------------------------------------------------------------
FILE_COLUMNS = "id, side, path, sha256, namespaces, imports, syntax_errors"
METHOD_COLUMNS = ("x.file_id, x.id, x.type_id, x.kind, x.name, x.return_type, x.signature, x.body, x.start_line, "
                  "x.end_line, x.start_byte, x.end_byte, x.body_start_byte, x.body_end_byte, x.lists")


def file_info(r: tuple) -> tuple[int, FileInfo]:
    file_id, side, path, sha, namespaces, imports, errors = r
    return file_id, FileInfo(side, path, sha, json.loads(namespaces), [Import(*i) for i in json.loads(imports)], errors)


def method_row(r: tuple, side: Side, path: str) -> Method:
    params, modifiers, annotations, type_params = json.loads(r[14])
    return Method(r[1], side, r[2], r[3], r[4], [Param(*p) for p in params], r[5], modifiers,
                  annotations, type_params, r[6], r[7], path, r[8], r[9], r[10], r[11], r[12], r[13])


def load(conn: sqlite3.Connection) -> Snapshot:
    """Read the whole store (members in side, path, source order)."""
    files = dict(file_info(r) for r in conn.execute(f"SELECT {FILE_COLUMNS} FROM files ORDER BY side, path"))
    order = "JOIN files f ON f.id = x.file_id ORDER BY f.side, f.path, x.ord"
    types = []
    for r in conn.execute("SELECT x.file_id, x.id, x.kind, x.name, x.qualified_name, x.container, x.outer_id, "
                          f"x.start_line, x.end_line, x.lists FROM types x {order}"):
        f = files[r[0]]
        type_params, bases, modifiers, annotations, constants = json.loads(r[9])
        types.append(TypeDecl(r[1], f.side, r[2], r[3], r[4], r[5], r[6], type_params, bases, modifiers,
                              annotations, f.path, r[7], r[8], constants))
    fields = []
    for r in conn.execute("SELECT x.id, x.type_id, x.name, x.type, x.initializer, x.line, x.lists "
                          f"FROM fields x {order}"):
        modifiers, annotations = json.loads(r[6])
        fields.append(Field(r[0], r[1], r[2], r[3], modifiers, r[4], r[5], annotations))
    methods = []
    for r in conn.execute(f"SELECT {METHOD_COLUMNS} FROM methods x {order}"):
        f = files[r[0]]
        methods.append(method_row(r, f.side, f.path))
    return Snapshot(list(files.values()), types, fields, methods)
