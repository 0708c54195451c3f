"""The capability rules both IL checkers apply (rules.tsv, package data; cecil_checker.cs reads the
same file), loaded for the Python checker (il_check)."""
from __future__ import annotations

from dataclasses import dataclass, field
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
    core_namespaces: frozenset = frozenset()     # the allowlist: types directly in these namespaces
    core_types: frozenset = frozenset()          # every member of these types (and their nested types)
    core_members: frozenset = frozenset()        # "Type::member"
    core_typerefs: frozenset = frozenset()       # types that may appear in signatures (and those of core members)
    hard: tuple = ()                             # (capability, namespace or type) never allowed but by the Java original
    hard_members: dict = field(default_factory=dict)
    grants: tuple = ()                           # (capability, namespace or type) allowed when the Java original reaches it
    attributes: frozenset = frozenset()          # framework custom attributes the candidate's declarations may carry
    families: tuple = ()                         # (capability, namespace): its types when the Java original's file uses the family
    overloads: dict = field(default_factory=dict)    # "Type::member" -> ((capability, "P1,P2" or "*"), ...)
    null_only: dict = field(default_factory=dict)    # type full name -> capability: a value of it only ever null
    ruled: frozenset = frozenset()               # types a rule opens or closes member by member, or in signatures only


@lru_cache(maxsize=4)
def load_rules(path: Path = RULES) -> Rules:
    """rules.tsv -> Rules (the format is described at the top of the file)."""
    kinds: dict[str, list[list[str]]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            f = line.split("\t")
            kinds.setdefault(f[0], []).append(f)
    unknown = set(kinds) - {"namespace", "type", "member", "path_member", "allowed", "harmless", "restricted", "guarded",
                            "core", "hard", "grant", "attribute", "family", "overload", "null_only"}
    if unknown:
        raise ValueError(f"{path}: unknown rule kind(s) {sorted(unknown)}")
    core: dict[str, set[str]] = {"namespace": set(), "type": set(), "member": set(), "typeref": set()}
    for f in kinds.get("core", []):
        if f[1] not in core:
            raise ValueError(f"{path}: unknown core scope {f[1]!r} (namespace, type, member or typeref)")
        core[f[1]].add(f[2])
    core["typeref"] |= {m.split("::", 1)[0] for m in core["member"]}
    hard = kinds.get("hard", [])
    overloads: dict[str, tuple] = {}
    for f in kinds.get("overload", []):
        overloads[f[2]] = overloads.get(f[2], ()) + ((f[1], f[3]),)
    ruled = {f[2].split("::", 1)[0] for kind in ("member", "path_member", "allowed", "harmless", "overload", "hard")
             for f in kinds.get(kind, []) if "::" in f[2]} | {m.split("::", 1)[0] for m in core["member"]} | core["typeref"]
    return Rules(tuple((f[1], f[2]) for f in kinds.get("namespace", [])),
                 {f[2]: f[1] for f in kinds.get("type", [])}, {f[2]: f[1] for f in kinds.get("member", [])},
                 {f[2]: f[1] for f in kinds.get("path_member", [])}, frozenset(f[2] for f in kinds.get("allowed", [])),
                 frozenset(f[2] for f in kinds.get("harmless", [])),
                 {f[2]: frozenset(f[3].split(",")) for f in kinds.get("restricted", [])},
                 {f[2]: f[1] for f in kinds.get("guarded", [])},
                 frozenset(core["namespace"]), frozenset(core["type"]), frozenset(core["member"]),
                 frozenset(core["typeref"]), tuple((f[1], f[2]) for f in hard if "::" not in f[2]),
                 {f[2]: f[1] for f in hard if "::" in f[2]}, tuple((f[1], f[2]) for f in kinds.get("grant", [])),
                 frozenset(f[2] for f in kinds.get("attribute", [])), tuple((f[1], f[2]) for f in kinds.get("family", [])),
                 overloads, {f[2]: f[1] for f in kinds.get("null_only", [])}, frozenset(ruled))
