"""The symbol index of a Java source repo and a C# target repo, kept in workdir/index.sqlite.

`Index.build` re-parses only files whose sha256 changed and writes in one transaction; lookups are
indexed SQL queries. A store written with another SCHEMA_VERSION (PRAGMA user_version) is rebuilt.
Other modules may keep their own tables in `Index.conn` (they are dropped when the schema changes).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from repotrans.errors import ConfigError
from repotrans.index.model import SIDES, Field, FileInfo, Import, Method, Param, Side, TypeDecl
from repotrans.index.parse import ParsedFile, norm_type, parse_file

SCHEMA_VERSION = 1
MAX_FILE_BYTES = 2 * 1024 * 1024
EXTENSION = {"source": ".java", "target": ".cs"}
SKIP_DIRS = frozenset({"bin", "obj", "node_modules"})   # besides hidden folders

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    side TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL, namespaces TEXT NOT NULL,
    imports TEXT NOT NULL, syntax_errors INTEGER NOT NULL, decode_errors INTEGER NOT NULL,
    PRIMARY KEY (side, path));
CREATE TABLE types (
    id TEXT NOT NULL, side TEXT NOT NULL, path TEXT NOT NULL, ord INTEGER NOT NULL, kind TEXT NOT NULL,
    name TEXT NOT NULL, qualified_name TEXT NOT NULL, container TEXT NOT NULL, outer_id TEXT,
    type_params TEXT NOT NULL, bases TEXT NOT NULL, modifiers TEXT NOT NULL, annotations TEXT NOT NULL,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, enum_constants TEXT NOT NULL);
CREATE INDEX types_id ON types (id);
CREATE INDEX types_name ON types (side, name);
CREATE INDEX types_outer ON types (outer_id);
CREATE INDEX types_path ON types (side, path);
CREATE TABLE fields (
    id TEXT NOT NULL, side TEXT NOT NULL, path TEXT NOT NULL, ord INTEGER NOT NULL, type_id TEXT NOT NULL,
    name TEXT NOT NULL, type TEXT NOT NULL, modifiers TEXT NOT NULL, initializer TEXT,
    line INTEGER NOT NULL, annotations TEXT NOT NULL);
CREATE INDEX fields_type ON fields (type_id);
CREATE INDEX fields_path ON fields (side, path);
CREATE TABLE methods (
    id TEXT NOT NULL, side TEXT NOT NULL, path TEXT NOT NULL, ord INTEGER NOT NULL, type_id TEXT NOT NULL,
    kind TEXT NOT NULL, name TEXT NOT NULL, params TEXT NOT NULL, return_type TEXT,
    modifiers TEXT NOT NULL, annotations TEXT NOT NULL, type_params TEXT NOT NULL,
    signature TEXT NOT NULL, body TEXT, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    start_byte INTEGER NOT NULL, end_byte INTEGER NOT NULL, body_start_byte INTEGER, body_end_byte INTEGER);
CREATE INDEX methods_id ON methods (id);
CREATE INDEX methods_type ON methods (type_id);
CREATE INDEX methods_name ON methods (side, name);
CREATE INDEX methods_path ON methods (side, path);
"""

_TYPE_COLS = ("id, side, path, kind, name, qualified_name, container, outer_id, type_params, bases, "
              "modifiers, annotations, start_line, end_line, enum_constants")
_FIELD_COLS = "id, type_id, name, type, modifiers, initializer, line, annotations"
_METHOD_COLS = ("id, side, type_id, kind, name, params, return_type, modifiers, annotations, type_params, "
                "signature, body, path, start_line, end_line, start_byte, end_byte, body_start_byte, "
                "body_end_byte")
_dumps = json.dumps


@dataclass
class IndexSummary:
    files: int = 0
    types: int = 0
    methods: int = 0
    syntax_error_files: list[str] = field(default_factory=list)
    decode_error_files: list[str] = field(default_factory=list)    # not UTF-8: decoded with replacement
    skipped: dict[str, str] = field(default_factory=dict)          # path -> "binary" | "larger than 2 MB"
    parsed: int = 0
    unchanged: int = 0
    deleted: int = 0
    seconds: float = 0.0

    def render(self) -> str:
        lines = [f"indexed {self.files} files: {self.types} types, {self.methods} methods "
                 f"({self.parsed} parsed, {self.unchanged} unchanged, {self.deleted} deleted) "
                 f"in {self.seconds:.2f} s"]
        for label, paths in (("syntax errors (indexed as far as recovered)", self.syntax_error_files),
                             ("not UTF-8 (decoded with replacement)", self.decode_error_files),
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


class Index:
    """Read/write access to one workspace's index.sqlite (see module doc)."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn, self.path = conn, path
        self._all_methods: dict[str, list[Method]] = {}

    @classmethod
    def open(cls, workdir: Path, must_exist: bool = False) -> Index:
        path = Path(workdir) / "index.sqlite"
        hint = "run `repotrans index --source <java repo> --target <c# repo>` first"
        if must_exist and not path.is_file():
            raise ConfigError(f"no index in {workdir}; {hint}")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError:                   # not an SQLite file: it is only a cache
            if must_exist:
                raise ConfigError(f"{path} is not an index; {hint}") from None
            conn.close()
            path.unlink()
            conn, version = cls._connect(path), 0
        if version != SCHEMA_VERSION:
            if must_exist:
                raise ConfigError(f"{path} was written by another repotrans version; {hint}")
            cls._create(conn)
        index = cls(conn, path)
        if must_exist and index._meta("source_root") is None:
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

    def close(self) -> None:
        self.conn.close()

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # ---- build -----------------------------------------------------------------------------------
    def build(self, source: Path, target: Path, progress: bool = True) -> IndexSummary:
        """Index both repositories; only files whose hash changed are parsed again."""
        started = time.perf_counter()
        roots = {"source": Path(source).resolve(), "target": Path(target).resolve()}
        wanted = {side: _walk(side, roots[side]) for side in SIDES}
        known = {(side, path): sha for side, path, sha in self.conn.execute("SELECT side, path, sha256 FROM files")}
        summary, parsed, keep = IndexSummary(), [], set()
        bar = tqdm(total=sum(map(len, wanted.values())), desc="indexing", unit="file", file=sys.stderr,
                   disable=not progress, leave=False)
        for side in SIDES:
            for rel in wanted[side]:
                bar.update()
                file = roots[side] / rel
                if file.stat().st_size > MAX_FILE_BYTES:
                    summary.skipped[rel] = f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"
                    continue
                data = file.read_bytes()
                if b"\0" in data:
                    summary.skipped[rel] = "binary"
                    continue
                sha = hashlib.sha256(data).hexdigest()
                keep.add((side, rel))
                if known.get((side, rel)) == sha:
                    summary.unchanged += 1
                    continue
                parsed.append(parse_file(side, rel, data, sha))
        bar.close()
        gone = [key for key in known if key not in keep]
        summary.parsed, summary.deleted = len(parsed), len(gone)
        with self.conn:
            stale = gone + [(p.info.side, p.info.path) for p in parsed if (p.info.side, p.info.path) in known]
            for table in ("files", "types", "fields", "methods"):
                self.conn.executemany(f"DELETE FROM {table} WHERE side = ? AND path = ?", stale)
            for p in parsed:
                self._insert(p)
            self.conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                  [(f"{side}_root", str(roots[side])) for side in SIDES])
        self._all_methods.clear()
        self._summarise(summary)
        summary.seconds = time.perf_counter() - started
        return summary

    def _insert(self, p: ParsedFile) -> None:
        info, side, path = p.info, p.info.side, p.info.path
        self.conn.execute("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", (
            side, path, info.sha256, _dumps(info.namespaces),
            _dumps([[i.text, i.name, i.static, i.alias, i.wildcard] for i in info.imports]),
            info.syntax_errors, int(p.decode_errors)))
        self.conn.executemany("INSERT INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [(
            t.id, side, path, n, t.kind, t.name, t.qualified_name, t.container, t.outer_id,
            _dumps(t.type_params), _dumps(t.bases), _dumps(t.modifiers), _dumps(t.annotations),
            t.start_line, t.end_line, _dumps(t.enum_constants)) for n, t in enumerate(p.types)])
        self.conn.executemany("INSERT INTO fields VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [(
            f.id, side, path, n, f.type_id, f.name, f.type, _dumps(f.modifiers), f.initializer, f.line,
            _dumps(f.annotations)) for n, f in enumerate(p.fields)])
        self.conn.executemany(
            "INSERT INTO methods VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [(
                m.id, side, path, n, m.type_id, m.kind, m.name,
                _dumps([[a.name, a.type, a.varargs, a.modifiers] for a in m.params]), m.return_type,
                _dumps(m.modifiers), _dumps(m.annotations), _dumps(m.type_params), m.signature, m.body,
                m.start_line, m.end_line, m.start_byte, m.end_byte, m.body_start_byte, m.body_end_byte)
                for n, m in enumerate(p.methods)])

    def _summarise(self, summary: IndexSummary) -> None:
        q = self.conn.execute
        summary.files = q("SELECT COUNT(*) FROM files").fetchone()[0]
        summary.types = q("SELECT COUNT(DISTINCT id) FROM types").fetchone()[0]
        summary.methods = q("SELECT COUNT(*) FROM methods").fetchone()[0]
        summary.syntax_error_files = [r[0] for r in q("SELECT path FROM files WHERE syntax_errors > 0 ORDER BY side, path")]
        summary.decode_error_files = [r[0] for r in q("SELECT path FROM files WHERE decode_errors > 0 ORDER BY side, path")]

    # ---- files -----------------------------------------------------------------------------------
    def root(self, side: Side) -> Path:
        value = self._meta(f"{side}_root")
        if value is None:
            raise ConfigError(f"the index in {self.path.parent} was never built")
        return Path(value)

    def files(self, side: Side) -> list[FileInfo]:
        rows = self.conn.execute("SELECT side, path, sha256, namespaces, imports, syntax_errors FROM files "
                                 "WHERE side = ? ORDER BY path", (side,))
        return [_file(r) for r in rows]

    def file(self, side: Side, path: str) -> FileInfo | None:
        row = self.conn.execute("SELECT side, path, sha256, namespaces, imports, syntax_errors FROM files "
                                "WHERE side = ? AND path = ?", (side, path)).fetchone()
        return _file(row) if row else None

    # ---- types -----------------------------------------------------------------------------------
    def _types(self, where: str, args: tuple) -> list[TypeDecl]:
        rows = self.conn.execute(f"SELECT {_TYPE_COLS} FROM types WHERE {where} ORDER BY side, path, ord", args)
        return _merge_parts([_type(r) for r in rows])

    def types(self, side: Side) -> list[TypeDecl]:
        return self._types("side = ?", (side,))

    def type(self, type_id: str) -> TypeDecl | None:
        found = self._types("id = ?", (type_id,))
        return found[0] if found else None

    def find_types(self, side: Side, name: str) -> list[TypeDecl]:
        """Types whose simple name, qualified name, or dotted suffix ("Shapes.Circle") is `name`."""
        query = _strip_generics(name.split(":", 1)[1] if name.startswith(f"{side}:") else name)
        query = query.replace("$", ".").replace(" ", "")
        if not query:
            return []
        simple = query.rsplit(".", 1)[-1]
        return [t for t in self._types("side = ? AND name = ?", (side, simple))
                if t.qualified_name == query or t.qualified_name.endswith("." + query)]

    def nested_types(self, type_id: str) -> list[TypeDecl]:
        return self._types("outer_id = ?", (type_id,))

    def fields(self, type_id: str) -> list[Field]:
        rows = self.conn.execute(f"SELECT {_FIELD_COLS} FROM fields WHERE type_id = ? ORDER BY path, ord",
                                 (type_id,))
        return [_field(r) for r in rows]

    # ---- methods ---------------------------------------------------------------------------------
    def _methods(self, where: str, args: tuple) -> list[Method]:
        rows = self.conn.execute(f"SELECT {_METHOD_COLS} FROM methods WHERE {where} ORDER BY path, ord", args)
        return [_method(r) for r in rows]

    def methods(self, type_id: str) -> list[Method]:
        """Methods, constructors, properties and indexers of one type, in source order."""
        return self._methods("type_id = ?", (type_id,))

    def method(self, method_id: str) -> Method | None:
        found = self._methods("id = ?", (method_id,))
        return found[0] if found else None

    def all_methods(self, side: Side) -> list[Method]:
        if side not in self._all_methods:
            self._all_methods[side] = self._methods("side = ?", (side,))
        return list(self._all_methods[side])

    def find_methods(self, side: Side, query: str) -> list[Method]:
        """Members matching "Name", "Type.Name", "Ns.Type.Name(int, string)" or "Type.this[int]".

        A name equal to a type's name also finds its constructors. With parameter types, exact
        (whitespace-normalised) matches win; otherwise types are compared erased and unqualified.
        """
        parsed = _parse_member_query(query.split(":", 1)[1] if query.startswith(f"{side}:") else query)
        if parsed is None:
            return []
        owner, name, params = parsed
        found = [m for m in self._methods("side = ? AND name = ?", (side, name))
                 if not owner or _qualified_matches(m.type_id, owner)]
        if name not in ("<init>", "this"):         # "Circle(int)", "Shapes.Circle.Circle(int)": constructors
            owners = {f"{owner}.{name}" if owner else name}
            if owner.rsplit(".", 1)[-1] == name:
                owners.add(owner)
            for t in (t for type_name in owners for t in self.find_types(side, type_name)):
                found += [m for m in self.methods(t.id) if m.kind == "constructor"]
        found = list({(m.path, m.start_byte): m for m in found}.values())
        if params is not None:
            exact = [m for m in found if m.param_types == params]
            loose = [m for m in found if [_erase(p) for p in m.param_types] == [_erase(p) for p in params]]
            found = exact or loose
        return sorted(found, key=lambda m: m.id)


# ---- row <-> model ---------------------------------------------------------------------------------
def _file(r) -> FileInfo:
    return FileInfo(r[0], r[1], r[2], json.loads(r[3]), [Import(*i) for i in json.loads(r[4])], r[5])


def _type(r) -> TypeDecl:
    return TypeDecl(r[0], r[1], r[3], r[4], r[5], r[6], r[7], json.loads(r[8]), json.loads(r[9]),
                    json.loads(r[10]), json.loads(r[11]), r[2], r[12], r[13], json.loads(r[14]))


def _field(r) -> Field:
    return Field(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], json.loads(r[7]))


def _method(r) -> Method:
    return Method(r[0], r[1], r[2], r[3], r[4], [Param(*p) for p in json.loads(r[5])], r[6], json.loads(r[7]),
                  json.loads(r[8]), json.loads(r[9]), r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17],
                  r[18])


def _merge_parts(types: list[TypeDecl]) -> list[TypeDecl]:
    """One TypeDecl per id: parts of a partial type are merged into the first part (path, lines)."""
    merged: dict[str, TypeDecl] = {}
    for t in types:
        first = merged.setdefault(t.id, t)
        if first is not t:
            for attr in ("bases", "modifiers", "annotations", "type_params", "enum_constants"):
                values = getattr(first, attr)
                values += [v for v in getattr(t, attr) if v not in values]
    return list(merged.values())


# ---- member queries --------------------------------------------------------------------------------
_GENERIC = re.compile(r"<[^<>]*>")
_PARAM_PREFIX = re.compile(r"^(?:(?:final|ref|out|in|params|this|scoped|readonly)\s+|@\w+(?:\.\w+)*\s+)+")
_NAMED_PARAM = re.compile(r"^(.*\S)\s+[A-Za-z_@][\w]*$")


def _strip_generics(text: str) -> str:
    text = text.replace("<init>", "\0")
    while True:
        stripped = _GENERIC.sub("", text)
        if stripped == text:
            return stripped.replace("\0", "<init>").strip()
        text = stripped


def _split_top(text: str) -> list[str]:
    """Split on commas outside <>, [] and ()."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _param_type(text: str) -> str:
    """"final List<String> xs" -> "List<String>"; a bare type is kept."""
    text = _PARAM_PREFIX.sub("", text.strip())
    named = _NAMED_PARAM.match(text)
    if named and not named.group(1).endswith((",", "<", "?")) and " extends" not in text and " super" not in text:
        text = named.group(1)
    return norm_type(text)


def _parse_member_query(query: str) -> tuple[str, str, list[str] | None] | None:
    """-> (owner suffix or "", member name, parameter types or None)."""
    query = query.strip()
    params: list[str] | None = None
    head = query
    if query.endswith("]") and ".this[" in "." + query:
        cut = query.rindex("this[")
        head, params = query[:cut] + "this", [_param_type(p) for p in _split_top(query[cut + 5:-1])]
    elif "(" in query:
        cut = query.index("(")
        inner = query[cut + 1:query.rindex(")")] if ")" in query else query[cut + 1:]
        head, params = query[:cut], [_param_type(p) for p in _split_top(inner)]
    head = _strip_generics(head).split()[-1] if _strip_generics(head).split() else ""
    if not head:
        return None
    owner, _, name = head.rpartition(".")
    return owner, name, params


def _qualified_matches(type_id: str, owner: str) -> bool:
    qualified = type_id.split(":", 1)[1]
    return qualified == owner or qualified.endswith("." + owner)


def _erase(type_text: str) -> str:
    """"java.util.List<String>" -> "List"; "String..." -> "String[]"."""
    text = _strip_generics(type_text).replace("...", "[]")
    base, brackets = re.match(r"^(.*?)((?:\[[,\s]*\])*)$", text).groups()
    return base.rsplit(".", 1)[-1] + brackets.replace(" ", "")
