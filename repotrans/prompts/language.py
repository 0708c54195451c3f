"""What a C# language version allows and forbids, spelled out for the prompt (a small table per version)."""
from __future__ import annotations

# version -> features it adds, in the words a prompt uses; cumulative in this order
FEATURES: list[tuple[str, list[str]]] = [
    ("3", ["`var`", "lambdas and LINQ", "auto-properties", "object and collection initializers",
           "extension methods"]),
    ("4", ["named and optional arguments", "`dynamic`"]),
    ("5", ["`async`/`await`"]),
    ("6", ["expression-bodied methods and get-only properties (`=> expr;`)", "string interpolation `$\"...\"`",
           "`nameof`", "null-conditional `?.`", "auto-property initializers", "`using static`",
           "exception filters (`catch (E e) when (...)`)"]),
    ("7", ["`out var` declarations", "tuples `(int, string)` and deconstruction", "pattern matching `is T x`",
           "local functions", "throw expressions (`?? throw ...`)", "`_` digit separators and `0b` literals",
           "expression-bodied constructors and accessors"]),
    ("7.1", ["the `default` literal (without a type)", "inferred tuple element names"]),
    ("7.2", ["`in` parameters", "`private protected`"]),
    ("7.3", ["`==` on tuples"]),
    ("8", ["switch expressions", "property and positional patterns", "`using` declarations", "indices and ranges "
           "(`^1`, `a..b`)", "`??=`", "static local functions", "nullable reference types"]),
    ("9", ["records", "`init` accessors", "target-typed `new()`", "`and`/`or`/`not` patterns"]),
    ("10", ["file-scoped namespaces", "`global using`", "record structs"]),
    ("11", ["raw string literals", "list patterns", "`required` members"]),
    ("12", ["primary constructors on classes", "collection expressions `[1, 2]`"]),
]
ALIASES = {"iso-1": "1", "iso-2": "2", "7.0": "7", "8.0": "8", "9.0": "9", "10.0": "10", "11.0": "11",
           "12.0": "12", "6.0": "6", "5.0": "5"}
NEWEST = {"latest", "latestmajor", "preview", "default"}


def _key(version: str) -> float:
    try:
        return float(version)
    except ValueError:
        return 99.0


def language_notes(version: str) -> dict:
    """{"version", "allows": [...], "forbids": [...]} for a LangVersion value ("6", "7.3", "latest")."""
    v = ALIASES.get(version.strip().lower(), version.strip().lower())
    limit = 99.0 if v in NEWEST else _key(v)
    allows = [f for ver, feats in FEATURES if _key(ver) <= limit and _key(ver) >= 6 for f in feats]
    forbids = [f for ver, feats in FEATURES if _key(ver) > limit for f in feats][:12]
    return {"version": version, "allows": allows, "forbids": forbids}
