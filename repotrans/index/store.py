"""The symbol index of a Java source repo and a C# target repo, kept in workdir/index.sqlite.

`Index.build` re-parses only files whose sha256 changed and writes in one transaction. Lookups are
served from an in-memory view (lookup.Snapshot) loaded on first use and reloaded when the store
changes (PRAGMA data_version); the objects it returns are shared, treat them as read-only.
A store written with another SCHEMA_VERSION (PRAGMA user_version) is rebuilt. Other modules may keep
their own tables in `Index.conn` (they are dropped when the schema changes).
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from repotrans.errors import ConfigError
from repotrans.index.lookup import Snapshot
from repotrans.index.model import SIDES, Field, FileInfo, Method, Side, TypeDecl
from repotrans.index.rows import FILE_COLUMNS, METHOD_COLUMNS, FileRows, file_info, file_rows, gc_paused, load, method_row

SCHEMA_VERSION = 8          # 1: side/path columns on member tables; 2: explicit interface impls shared ids; 4: C# modifiers after #pragma; 5: C# static constructors are <clinit>; 6: UTF-16 and Windows-1252 files decoded, directives in base lists; 7: C# members in a #if block; 8: C# delegates are types
MAX_FILE_BYTES = 2 * 1024 * 1024
PARALLEL_MIN = 200          # files to parse before worker processes pay off
INSERT_BATCH = 64           # files whose rows go to SQLite in one executemany per table
EXTENSION = {"source": ".java", "target": ".cs"}
SKIP_DIRS = frozenset({"bin", "obj", "node_modules"})   # besides hidden folders

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, side TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL,
    namespaces TEXT NOT NULL, imports TEXT NOT NULL, syntax_errors INTEGER NOT NULL,
    decode_errors INTEGER NOT NULL, UNIQUE (side, path));
CREATE TABLE types (
    file_id INTEGER NOT NULL REFERENCES files (id), ord INTEGER NOT NULL, id TEXT NOT NULL,
    kind TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL, container TEXT NOT NULL,
    outer_id TEXT, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    lists TEXT NOT NULL);           -- JSON [type_params, bases, modifiers, annotations, enum_constants]
CREATE TABLE fields (
    file_id INTEGER NOT NULL REFERENCES files (id), ord INTEGER NOT NULL, id TEXT NOT NULL,
    type_id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL, initializer TEXT, line INTEGER NOT NULL,
    lists TEXT NOT NULL);           -- JSON [modifiers, annotations]
CREATE TABLE methods (
    file_id INTEGER NOT NULL REFERENCES files (id), ord INTEGER NOT NULL, id TEXT NOT NULL,
    type_id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, return_type TEXT, signature TEXT NOT NULL,
    body TEXT, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, start_byte INTEGER NOT NULL,
    end_byte INTEGER NOT NULL, body_start_byte INTEGER, body_end_byte INTEGER,
    lists TEXT NOT NULL);           -- JSON [params as [name, type, varargs, modifiers], modifiers, annotations, type_params]
CREATE INDEX types_file ON types (file_id);
CREATE INDEX fields_file ON fields (file_id);
CREATE INDEX methods_file ON methods (file_id);
"""


@dataclass
class IndexSummary:
    files: int = 0
    types: int = 0
    methods: int = 0
    syntax_error_files: list[str] = field(default_factory=list)
    decode_error_files: list[str] = field(default_factory=list)    # not UTF-8: decoded with replacement
    skipped: dict[str, str] = field(default_factory=dict)          # path -> "binary", "larger than 2 MB", ...
    parsed: int = 0
    unchanged: int = 0
    deleted: int = 0
    seconds: float = 0.0

    def render(self) -> str:
        lines = [f"indexed {self.files} files: {self.types} types, {self.methods} methods "
                 f"({self.parsed} parsed, {self.unchanged} unchanged, {self.deleted} deleted) "
                 f"in {self.seconds:.2f} s"]
        for label, paths in (("syntax errors (indexed as far as recovered)", self.syntax_error_files),
                             ("not UTF-8 (decoded by their byte-order mark, else as Windows-1252)", self.decode_error_files),
                             ("skipped", [f"{p} ({why})" for p, why in self.skipped.items()])):
            if paths:
                shown = ", ".join(paths[:10]) + (f", ... {len(paths) - 10} more" if len(paths) > 10 else "")
                lines.append(f"  {label}: {len(paths)} file(s): {shown}")
        return "\n".join(lines)


def _walk(side: Side, root: Path) -> list[str]:
    """Relative '/'-separated paths of the side's source files, sorted."""
    if not root.is_dir():
        raise ConfigError(f"{side} repository {root} does not exist or is not a directory")
    ext, out = EXTENSION[side], []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS]
        rel = Path(folder).relative_to(root).as_posix()
        out += [n if rel == "." else f"{rel}/{n}" for n in names if n.endswith(ext)]
    if not out:
        raise ConfigError(f"{side} repository {root} has no {ext} files")
    return sorted(out)


@contextmanager
def _pool(workers: int) -> Iterator[Callable]:
    """An ordered map over `workers` forked processes (the plain built-in map for one)."""
    if workers <= 1:
        yield map
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as executor:
        yield lambda fn, items: executor.map(fn, items, chunksize=16)


class Index:
    """Read/write access to one workspace's index.sqlite (see module doc)."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn, self.path = conn, path
        self._snapshot: Snapshot | None = None
        self._data_version = -1
        self._lookups = 0           # lookups served by SQL before the snapshot was loaded (see _current)

    @staticmethod
    def file_in(workdir: Path) -> Path:
        """Where a workdir keeps its index."""
        return Path(workdir) / "index.sqlite"

    @classmethod
    def open(cls, workdir: Path, must_exist: bool = False) -> Index:
        path = cls.file_in(workdir)
        hint = "run `repotrans index --source <java repo> --target <c# repo>` first"
        if must_exist and not path.is_file():
            raise ConfigError(f"no index in {workdir}; {hint}")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, check_same_thread=False)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.close()
        except sqlite3.DatabaseError:                   # not an SQLite file: it is only a cache
            conn.close()
            if must_exist:
                raise ConfigError(f"{path} is not an index; {hint}") from None
            path.unlink()
            version = 0
        conn = cls._connect(path)
        index = cls(conn, path)
        if version != SCHEMA_VERSION:
            if must_exist:
                index.close()
                raise ConfigError(f"{path} was written by another repotrans version; {hint}")
            cls._create(conn)
        if must_exist and index._meta("source_root") is None:
            index.close()
            raise ConfigError(f"the index in {workdir} was never built; {hint}")
        return index

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        """Drop every table (ours and other modules' caches) and create the current schema."""
        with conn:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            for table in tables:
                conn.execute(f'DROP TABLE "{table}"')
        conn.executescript(_SCHEMA)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def copy_to(self, workdir: Path, source: Path, target: Path) -> Index:
        """A copy of this index in `workdir` (what was committed: WAL-safe), re-rooted onto `source` +
        `target`: files unchanged there are not parsed again. The copy is the caller's to close."""
        path = self.file_in(workdir)
        path.parent.mkdir(parents=True, exist_ok=True)
        copy = sqlite3.connect(path)
        try:
            self.conn.backup(copy)
        finally:
            copy.close()
        index = Index.open(workdir)
        index.build(source, target, progress=False)
        return index

    def close(self) -> None:
        self.conn.close()

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # ---- build -----------------------------------------------------------------------------------
    def build(self, source: Path, target: Path, progress: bool = True,
              workers: int | None = None) -> IndexSummary:
        """Index both repositories in one transaction; only files whose hash changed are parsed.

        With PARALLEL_MIN or more files to parse, `workers` processes (default: one per CPU) parse them.
        """
        started = time.perf_counter()
        roots = {"source": Path(source).resolve(), "target": Path(target).resolve()}
        wanted = {side: _walk(side, roots[side]) for side in SIDES}
        known = {(side, path): (file_id, sha) for file_id, side, path, sha
                 in self.conn.execute("SELECT id, side, path, sha256 FROM files")}
        next_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM files").fetchone()[0]
        summary, keep, jobs = IndexSummary(), set(), []
        for side in SIDES:
            for rel in wanted[side]:
                file = os.path.join(roots[side], rel)
                try:
                    if os.stat(file).st_size > MAX_FILE_BYTES:
                        summary.skipped[rel] = f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"
                        continue
                    with open(file, "rb") as handle:
                        data = handle.read()
                except OSError as exc:              # broken symlink, no permission, vanished meanwhile
                    summary.skipped[rel] = f"unreadable: {exc.strerror or exc}"
                    continue
                if b"\0" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
                    summary.skipped[rel] = "binary"           # (UTF-16/32 text holds zeros: kept)
                    continue
                sha = hashlib.sha256(data).hexdigest()
                keep.add((side, rel))
                if known.get((side, rel), (None, None))[1] == sha:
                    summary.unchanged += 1
                else:
                    jobs.append((next_id + len(jobs), side, rel, data, sha))
        stale = [known[key][0] for key in known if key not in keep]
        stale += [known[(side, rel)][0] for _, side, rel, _, _ in jobs if (side, rel) in known]
        workers = workers or os.cpu_count() or 1
        bar = tqdm(total=len(jobs), desc="indexing", unit="file", file=sys.stderr, disable=not progress,
                   leave=False)
        with self.conn, bar, gc_paused(), _pool(workers if len(jobs) >= PARALLEL_MIN else 1) as pool:
            for file_id in stale:                 # one transaction: rolled back on any error
                self._delete(file_id)
            batch: list[FileRows] = []
            for rows in pool(file_rows, jobs):
                batch.append(rows)
                if len(batch) == INSERT_BATCH:
                    self._insert(batch)
                    batch = []
                bar.update()
            self._insert(batch)
            self.conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                  [(f"{side}_root", str(roots[side])) for side in SIDES])
        self._snapshot = None
        summary.parsed, summary.deleted = len(jobs), sum(1 for key in known if key not in keep)
        self._summarise(summary)
        summary.seconds = time.perf_counter() - started
        return summary

    def _delete(self, file_id: int) -> None:
        for table in ("types", "fields", "methods"):
            self.conn.execute(f"DELETE FROM {table} WHERE file_id = ?", (file_id,))
        self.conn.execute("DELETE FROM files WHERE id = ?", (file_id,))

    def _insert(self, batch: list[FileRows]) -> None:
        """Insert the rows of several files (one executemany per table)."""
        execute = self.conn.executemany
        execute("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [rows[0] for rows in batch])
        execute("INSERT INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [r for rows in batch for r in rows[1]])
        execute("INSERT INTO fields VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [r for rows in batch for r in rows[2]])
        execute("INSERT INTO methods VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [r for rows in batch for r in rows[3]])

    def _summarise(self, summary: IndexSummary) -> None:
        q = self.conn.execute
        summary.files = q("SELECT COUNT(*) FROM files").fetchone()[0]
        summary.types = q("SELECT COUNT(DISTINCT id) FROM types").fetchone()[0]
        summary.methods = q("SELECT COUNT(*) FROM methods").fetchone()[0]
        summary.syntax_error_files = [r[0] for r in q("SELECT path FROM files WHERE syntax_errors > 0 "
                                                      "ORDER BY side, path")]
        summary.decode_error_files = [r[0] for r in q("SELECT path FROM files WHERE decode_errors > 0 "
                                                      "ORDER BY side, path")]

    # ---- lookups (served from an in-memory snapshot, reloaded when the store changes) ---------------
    def _snap(self) -> Snapshot:
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if self._snapshot is None or version != self._data_version:
            with gc_paused():
                self._snapshot, self._data_version = load(self.conn), version
        return self._snapshot

    def root(self, side: Side) -> Path:
        value = self._meta(f"{side}_root")
        if value is None:
            raise ConfigError(f"the index in {self.path.parent} was never built")
        return Path(value)

    def _current(self) -> Snapshot | None:
        """The snapshot when it is loaded and current, or after a few lookups (loaded then); None
        while a process has made only a few lookups: loading every row costs ~0.6 s of CPU on a
        1,000-file port, which a process that needs a fingerprint and one method should not pay."""
        self._lookups += 1
        if self._snapshot is not None or self._lookups > FEW_LOOKUPS:
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            if self._snapshot is not None and version == self._data_version:
                return self._snapshot
            if self._lookups > FEW_LOOKUPS:
                return self._snap()
        return None

    def files(self, side: Side) -> list[FileInfo]:
        snap = self._current()
        if snap is None:
            return [file_info(r)[1] for r in self.conn.execute(
                f"SELECT {FILE_COLUMNS} FROM files WHERE side = ? ORDER BY path", (side,))]
        return list(snap.files[side].values())

    def file(self, side: Side, path: str) -> FileInfo | None:
        return self._snap().files[side].get(path)

    def types(self, side: Side) -> list[TypeDecl]:
        return list(self._snap().types_by_side[side])

    def type(self, type_id: str) -> TypeDecl | None:
        return self._snap().types.get(type_id)

    def find_types(self, side: Side, name: str) -> list[TypeDecl]:
        """Types whose simple name, qualified name, or dotted suffix ("Shapes.Circle") is `name`."""
        return self._snap().find_types(side, name)

    def supertypes(self, t: TypeDecl, depth: int | None = None) -> list[TypeDecl]:
        """`t`'s superclasses and interfaces in the index, transitively, nearest first (hierarchy.py);
        `depth` 1 gives the direct bases."""
        return self._snap().hierarchy.supertypes(t, depth)

    def subtypes(self, t: TypeDecl) -> list[TypeDecl]:
        """The types deriving from `t` in the index, transitively, nearest first (hierarchy.py)."""
        return self._snap().hierarchy.subtypes(t)

    def resolve_type(self, t: TypeDecl, name: str) -> TypeDecl | None:
        """The project type a type name written in `t`'s declaration binds to (None: not in the index)."""
        return self._snap().hierarchy.resolve_type(t, name)

    def overridden_methods(self, side: Side) -> frozenset[str]:
        """Ids of the methods of `side` that a subtype in the index declares again (name and arity)."""
        return self._snap().hierarchy.overridden_methods(side)

    def nested_types(self, type_id: str) -> list[TypeDecl]:
        return list(self._snap().nested.get(type_id, []))

    def fields(self, type_id: str) -> list[Field]:
        return list(self._snap().fields.get(type_id, []))

    def methods(self, type_id: str) -> list[Method]:
        """Methods, constructors, properties and indexers of one type, in source order."""
        return list(self._snap().methods_by_type.get(type_id, []))

    def method(self, method_id: str) -> Method | None:
        snap = self._current()
        if snap is None:
            row = self.conn.execute(f"SELECT {METHOD_COLUMNS}, f.side, f.path FROM methods x JOIN files f "
                                    "ON f.id = x.file_id WHERE x.id = ? ORDER BY f.side, f.path, x.ord LIMIT 1",
                                    (method_id,)).fetchone()
            return None if row is None else method_row(row[:-2], row[-2], row[-1])
        return snap.methods.get(method_id)

    def all_methods(self, side: Side) -> list[Method]:
        return list(self._snap().methods_by_side[side])

    def find_methods(self, side: Side, query: str) -> list[Method]:
        """Members matching "Name", "Type.Name", "Ns.Type.Name(int, string)" or "Type.this[int]".

        A name equal to a type's name also finds its constructors. With parameter types, exact
        (whitespace-normalised) matches win; otherwise types are compared erased and unqualified.
        """
        return self._snap().find_methods(side, query)


FEW_LOOKUPS = 16
