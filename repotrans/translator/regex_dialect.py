"""Java regex syntax .NET reads otherwise, in a Java string literal (its source text, backslashes doubled):
character-class intersection. .NET has no `&&`; it has subtraction (`[a-z-[aeiou]]`). An intersection of
complements is the complement of the union (`[\\P{N}&&\\P{L}&&[^#]]` -> `[^\\p{N}\\p{L}#]`), and a class
intersected with complements is the class minus their union (`[a-z&&[^aeiou]]` -> `[a-z-[aeiou]]`). A class
with `&&` in another shape (two positive operands) is left as written."""
from __future__ import annotations

import re

def _operand(body: str) -> tuple[bool, str] | None:
    """A class operand's (negated, .NET body): `\\\\P{N}` -> (True, `\\\\p{N}`), `[^#]` -> (True, `#`), `a-z` ->
    (False, `a-z`); None for a shape this module does not convert."""
    if body.startswith("[") and body.endswith("]"):
        inner = body[1:-1]
        if "[" in inner or "&&" in inner:
            folded = _fold(inner)
            return None if folded is None else folded
        return (True, inner[1:]) if inner.startswith("^") else (False, inner)
    escape = re.fullmatch(r"\\\\([pP])\{(\w+)\}", body)
    if escape:
        return escape.group(1) == "P", f"\\\\p{{{escape.group(2)}}}"
    return None if "[" in body else (False, body)


def _split(inner: str) -> list[str] | None:
    """The `&&` operands of a class body at its own nesting level, each a nested class or a run of items."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(inner):
        if inner.startswith("\\\\", i):
            i += 3 if inner[i + 2:i + 3] else 2
            continue
        if inner[i] == "[":
            depth += 1
        elif inner[i] == "]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and inner.startswith("&&", i):
            parts.append(inner[start:i])
            start = i + 2
            i += 2
            continue
        i += 1
    return parts + [inner[start:]] if depth == 0 else None


def _fold(inner: str) -> tuple[bool, str] | None:
    """The class body `inner` (with `&&`) as one (negated, body), or None."""
    parts = _split(inner)
    if parts is None or any(not p for p in parts):
        return None
    operands = [_operand(p) for p in parts]
    if any(o is None for o in operands):
        return None
    positive = [body for negated, body in operands if not negated]
    excluded = "".join(body for negated, body in operands if negated)
    if len(positive) > 1:
        return None
    if not positive:
        return True, excluded
    return False, f"{positive[0]}-[{excluded}]" if excluded else positive[0]


def net_regex(literal: str) -> str:
    """The Java string literal's text with each outermost character class holding `&&` in .NET's syntax."""
    if "&&" not in literal:
        return literal
    out, i = [], 0
    while i < len(literal):
        if literal.startswith("\\\\", i):
            out.append(literal[i:i + 3])
            i += 3
            continue
        if literal[i] == "[":
            end, depth, j = None, 0, i
            while j < len(literal):
                if literal.startswith("\\\\", j):
                    j += 3
                    continue
                depth += literal[j] == "["
                depth -= literal[j] == "]"
                if depth == 0:
                    end = j
                    break
                j += 1
            if end is None:
                return literal
            inner = literal[i + 1:end]
            folded = _fold(inner) if "&&" in inner else None
            out.append(literal[i:end + 1] if folded is None else f"[{'^' if folded[0] else ''}{folded[1]}]")
            i = end + 1
            continue
        out.append(literal[i])
        i += 1
    return "".join(out)
