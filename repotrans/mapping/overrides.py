"""User corrections of the mapping: Java type or method -> the C# one, or "" for no counterpart.

The CLI reads them into the configuration (agents.config.load_config: `AgentConfig.mapping`), and
every load_mapping is given that value, from (later wins):
  1. the `[mapping]` section of ./repotrans.toml, or of the file named by `--config`;
  2. the file named by `--mapping FILE`: a TOML file with the same
     `[mapping]` section (or `types`/`methods` tables at its top), or a JSONL file as written by
     `repotrans mapping --format jsonl` (lines with "kind", "source", "target"; target null = none);
  3. overrides a caller passes (e.g. `translate --target-member`).

    [mapping.types]
    "org.acme.Foo" = "Acme.Foo"
    [mapping.methods]
    "org.acme.Foo.bar(Thing, Thing)" = "Acme.Foo.GetBar(Thing, Thing)"
    "org.acme.Foo.debugDump()" = ""          # no counterpart

Names are ids without the side prefix, or anything `Index.find_methods` / `find_types` resolves to
exactly one declaration ("Foo.bar(Thing, Thing)"); an entry that resolves to none or several is a
ConfigError naming it.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.index.store import Index

@dataclass(frozen=True)
class MappingOverrides:
    types: dict[str, str] = field(default_factory=dict)       # java name -> C# name ("" = none)
    methods: dict[str, str] = field(default_factory=dict)
    origin: str = ""                                          # where they came from, for messages
    java_tests: tuple[str, ...] = ()    # folders of Java test code (`--junit DIR`): never library code

    def merged(self, other: MappingOverrides | None) -> MappingOverrides:
        """These overrides with `other`'s entries on top."""
        if other is None or not other:
            return self
        origin = " + ".join(o for o in (self.origin, other.origin) if o)
        tests = self.java_tests + tuple(f for f in other.java_tests if f not in self.java_tests)
        return MappingOverrides({**self.types, **other.types}, {**self.methods, **other.methods}, origin, tests)

    def digest(self) -> str:
        """Stable hash of the entries (part of the mapping cache's fingerprint)."""
        entries = [sorted(self.types.items()), sorted(self.methods.items())]
        text = json.dumps(entries + [sorted(self.java_tests)] if self.java_tests else entries)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def __bool__(self) -> bool:
        return bool(self.types or self.methods or self.java_tests)


def read_file(path: Path) -> MappingOverrides:
    """Overrides from a TOML file (`[mapping]` section or top-level tables) or a JSONL export."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read mapping overrides {path}: {exc.strerror or exc}") from None
    if str(path).endswith(".jsonl"):
        return _from_jsonl(text, str(path))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    section = data.get("mapping", data if ("types" in data or "methods" in data) else {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [mapping] must be a table")
    out = {}
    for key in ("types", "methods"):
        table = section.get(key, {})
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise ConfigError(f'{path}: [mapping.{key}] must map names to names ("" = no counterpart)')
        out[key] = {_bare(k): _bare(v) for k, v in table.items()}
    return MappingOverrides(out["types"], out["methods"], str(path))


def _from_jsonl(text: str, origin: str) -> MappingOverrides:
    out: dict[str, dict[str, str]] = {"type": {}, "method": {}}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            kind, source, target = row["kind"], row["source"], row.get("target")
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ConfigError(f"{origin}:{n}: expected a JSON object with kind, source and target") from None
        if kind in out:
            out[kind][_bare(source)] = _bare(target or "")
    return MappingOverrides(out["type"], out["method"], origin)


def _bare(name: str) -> str:
    return name.split(":", 1)[1] if name.startswith(("source:", "target:")) else name.strip()


@dataclass(frozen=True)
class Resolved:
    """Overrides as ids: source id -> target id, or None for no counterpart."""
    types: dict[str, str | None]
    methods: dict[str, str | None]


def resolve(index: Index, overrides: MappingOverrides) -> Resolved:
    """Each entry's Java and C# declaration in this index; ConfigError for one that names none or several."""
    return Resolved(
        {_one(index, "source", k, True, overrides): _one(index, "target", v, True, overrides) if v else None
         for k, v in overrides.types.items()},
        {_one(index, "source", k, False, overrides): _one(index, "target", v, False, overrides) if v else None
         for k, v in overrides.methods.items()})


def _one(index: Index, side: str, name: str, is_type: bool, overrides: MappingOverrides) -> str:
    exact = f"{side}:{name}"
    if (index.type(exact) if is_type else index.method(exact)) is not None:
        return exact
    found = index.find_types(side, name) if is_type else index.find_methods(side, name)
    ids = sorted({x.id for x in found})
    where = f"mapping override in {overrides.origin or 'the caller'}"
    what = "Java" if side == "source" else "C#"
    if not ids:
        raise ConfigError(f"{where}: no {what} {'type' if is_type else 'member'} {name!r}")
    if len(ids) > 1:
        raise ConfigError(f"{where}: {what} {name!r} is ambiguous: {', '.join(i.split(':', 1)[1] for i in ids[:5])}")
    return ids[0]
