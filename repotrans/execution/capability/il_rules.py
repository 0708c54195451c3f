"""The capability rules both IL checkers apply (rules.tsv, package data; cecil_checker.cs reads the
same file), loaded for the Python checker (il_check)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from repotrans.execution.capability.checks import RULES


@dataclass(frozen=True)
class Rules:
    namespaces: tuple[tuple[str, str], ...]
    types: dict
    members: dict
    path_members: dict
    allowed: frozenset
    harmless: frozenset
    restricted: dict
    guarded: dict


@lru_cache(maxsize=4)
def load_rules(path: Path = RULES) -> Rules:
    """rules.tsv -> Rules (the format is described at the top of the file)."""
    kinds: dict[str, list[list[str]]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            f = line.split("\t")
            kinds.setdefault(f[0], []).append(f)
    unknown = set(kinds) - {"namespace", "type", "member", "path_member", "allowed", "harmless", "restricted", "guarded"}
    if unknown:
        raise ValueError(f"{path}: unknown rule kind(s) {sorted(unknown)}")
    return Rules(tuple((f[1], f[2]) for f in kinds.get("namespace", [])),
                 {f[2]: f[1] for f in kinds.get("type", [])}, {f[2]: f[1] for f in kinds.get("member", [])},
                 {f[2]: f[1] for f in kinds.get("path_member", [])}, frozenset(f[2] for f in kinds.get("allowed", [])),
                 frozenset(f[2] for f in kinds.get("harmless", [])),
                 {f[2]: frozenset(f[3].split(",")) for f in kinds.get("restricted", [])},
                 {f[2]: f[1] for f in kinds.get("guarded", [])})
