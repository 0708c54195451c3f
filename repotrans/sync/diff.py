"""A member-level diff of the Java side between two revisions, for `repotrans sync`.

Members (methods and constructors) are compared by id ("source:pkg.Type.name(params)"): the same id
with another body is `body`, with another declaration `signature`. What is left on either side is
paired by similarity, never by name alone: the same type and name with other parameters and a similar
body is `signature`; the same parameters and a body that is nearly the same (the old name read as the
new one) is `renamed` (same type) or `moved` (another type). The rest is `added` or `removed`, and a
type present on one side only is an added or removed type. A field of the same id whose type, modifiers
or initializer changed is `field`, and so is a new public or protected field (a constant) of a type both
revisions have (sync reports them for a human: it edits members only). Each change names the upstream commits that
touched its old or new declaration (per commit, the touched files are parsed before and after).
"""
from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.sync.history import Commit, show
from repotrans.index.model import Field, Method, TypeDecl
from repotrans.index.parse import parse_file
from repotrans.mapping.test_code import TEST_DIRS, TEST_IMPORTS

KINDS = ("added", "removed", "body", "signature", "renamed", "moved", "field")
SIMILAR = 0.8             # body similarity for a rename or a move
SIMILAR_SIGNATURE = 0.5   # body similarity for a parameter change of a same-named member
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Change:
    """One changed Java member (or type: `member` False) between the two revisions."""
    kind: str
    old_id: str | None
    new_id: str | None
    similarity: float | None = None
    commits: tuple[str, ...] = ()          # short ids, oldest first
    member: bool = True

    @property
    def name(self) -> str:
        return (self.new_id or self.old_id or "").split(":", 1)[1]


@dataclass
class JavaTree:
    """The product (non-test) Java types and members of one revision, by id."""
    types: dict[str, TypeDecl] = field(default_factory=dict)
    methods: dict[str, Method] = field(default_factory=dict)
    fields: dict[str, Field] = field(default_factory=dict)

    def add_file(self, path: str, data: bytes) -> None:
        parsed = parse_file("source", path, data, hashlib.sha256(data).hexdigest())
        if _is_test(path, parsed.info.imports):
            return
        self.types.update((t.id, t) for t in parsed.types)
        self.methods.update((m.id, m) for m in parsed.methods)
        self.fields.update((f.id, f) for f in parsed.fields)


def read_tree(root: Path) -> JavaTree:
    tree = JavaTree()
    for path in sorted(root.rglob("*.java")):
        rel = path.relative_to(root).as_posix()
        if not any(part.startswith(".") for part in rel.split("/")):
            tree.add_file(rel, path.read_bytes())
    return tree


def _is_test(path: str, imports) -> bool:
    parts = path.lower().split("/")[:-1]
    return any(p in TEST_DIRS for p in parts) or any(i.name.startswith(TEST_IMPORTS["source"]) for i in imports)


def _tokens(text: str | None) -> list[str]:
    return _TOKEN.findall(text or "")


def similarity(a: str | None, b: str | None) -> float:
    """Token similarity of two bodies (1.0: the same tokens)."""
    ta, tb = _tokens(a), _tokens(b)
    if not ta and not tb:
        return 1.0
    return difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio()


def _declaration(m: Method) -> str:
    return " ".join(m.signature.split())


def _params(m: Method) -> tuple[str, ...]:
    return tuple(m.param_types)


def diff_trees(old: JavaTree, new: JavaTree) -> list[Change]:
    """The changes from `old` to `new` (no commits attached), sorted by kind then name."""
    changes: list[Change] = []
    for mid in sorted(old.methods.keys() & new.methods.keys()):
        a, b = old.methods[mid], new.methods[mid]
        if _declaration(a) != _declaration(b):
            changes.append(Change("signature", mid, mid, round(similarity(a.body, b.body), 3)))
        elif " ".join((a.body or "").split()) != " ".join((b.body or "").split()):
            changes.append(Change("body", mid, mid, round(similarity(a.body, b.body), 3)))
    gone = {i: old.methods[i] for i in old.methods.keys() - new.methods.keys()}
    fresh = {i: new.methods[i] for i in new.methods.keys() - old.methods.keys()}
    scored = []
    for oid, a in gone.items():
        for nid, b in fresh.items():
            kind, score = _pair(a, b)
            if kind:
                scored.append((score, kind, oid, nid))
    for score, kind, oid, nid in sorted(scored, key=lambda s: (-s[0], s[2], s[3])):
        if oid in gone and nid in fresh:
            del gone[oid], fresh[nid]
            changes.append(Change(kind, oid, nid, round(score, 3)))
    for fid in sorted(old.fields.keys() & new.fields.keys()):
        if _field_text(old.fields[fid]) != _field_text(new.fields[fid]):
            changes.append(Change("field", fid, fid))
    for fid in sorted(new.fields.keys() - old.fields.keys()):      # a new public field or constant of a kept type
        f = new.fields[fid]
        if f.type_id in old.types and {"public", "protected"} & set(f.modifiers):
            changes.append(Change("field", None, fid))
    new_types = new.types.keys() - old.types.keys()
    changes += [Change("removed", oid, None) for oid in sorted(gone)]
    changes += [Change("added", None, nid) for nid in sorted(fresh)]
    changes += [Change("added", None, t, member=False) for t in sorted(new_types)]
    changes += [Change("removed", t, None, member=False) for t in sorted(old.types.keys() - new.types.keys())]
    return sorted(changes, key=lambda c: (KINDS.index(c.kind), not c.member, c.name))


def _field_text(f: Field) -> str:
    return " ".join(" ".join([*f.modifiers, f.type, f.initializer or ""]).split())


def _pair(a: Method, b: Method) -> tuple[str | None, float]:
    """How an old member that is gone and a new one could be one member: renamed, moved, signature."""
    if a.kind != b.kind:
        return None, 0.0
    if a.type_id == b.type_id and a.name == b.name:
        score = similarity(a.body, b.body)
        return ("signature", score) if score >= SIMILAR_SIGNATURE else (None, 0.0)
    if _params(a) != _params(b):
        return None, 0.0
    body = similarity(_renamed(a.body, a.name, b.name), b.body)
    if body < SIMILAR:
        return None, 0.0
    if a.type_id == b.type_id:
        return "renamed", body
    if a.name == b.name:
        return "moved", body
    return None, 0.0


def _renamed(body: str | None, old: str, new: str) -> str | None:
    """A body with calls of its own old name read as the new one (a recursive member renamed)."""
    return re.sub(rf"\b{re.escape(old)}\s*\(", f"{new}(", body) if body else body


def touched(repo: Path, commit: Commit) -> set[str]:
    """Member and type ids whose declaration or body `commit` changed, added or removed."""
    before, after = JavaTree(), JavaTree()
    for path in commit.files:
        for tree, rev in ((before, f"{commit.sha}^"), (after, commit.sha)):
            data = show(repo, rev, path)
            if data is not None:
                tree.add_file(path, data)
    out: set[str] = set()
    for c in diff_trees(before, after):
        out.update(i for i in (c.old_id, c.new_id) if i)
    return out


def with_commits(changes: list[Change], per_commit: list[tuple[Commit, set[str]]]) -> list[Change]:
    """Each change with the commits that touched its old or new id, following a rename or move through
    the commits in between (an id that a commit renamed counts as the same member after it)."""
    out = []
    for c in changes:
        ids = {i for i in (c.old_id, c.new_id) if i}
        hits = [commit.short for commit, ids_touched in per_commit if ids & ids_touched]
        out.append(Change(c.kind, c.old_id, c.new_id, c.similarity, tuple(hits), c.member))
    return out
