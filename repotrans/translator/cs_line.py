"""Where things stand on one line of C# (the repair rules edit one candidate line at a time): the value
of a return or an assignment, the receiver before a member access, a call's argument commas, and the
parameter count of a signature."""
from __future__ import annotations

import re

_PARAMS = re.compile(r"\(([^()]*)\)")


def value_span(line: str) -> tuple[int, int] | None:
    """Character span of the value in `return X;`, `T x = X;`, `x = X;` or `x op= X;`."""
    end = line.rstrip().rfind(";")
    end = end if end >= 0 else len(line.rstrip())
    ret = re.match(r"^\s*return\s+", line)
    if ret:
        return ret.end(), end
    depth = 0
    for i, ch in enumerate(line[:end]):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0 and line[i + 1:i + 2] != "=" and line[i - 1:i] not in "=!<>":
            return i + 1, end
    return None


def receiver_start(line: str, dot: int) -> int | None:
    """Where the receiver expression ending at `line[dot]` (a '.') starts: names, dots, calls,
    indexers and object creations, e.g. `a.b(c)[0]` in `x = a.b(c)[0].Member`."""
    i, depth = dot, 0
    while i > 0:
        ch = line[i - 1]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and not (ch.isalnum() or ch in "_."):
            break
        i -= 1
    created = re.search(r"\bnew\s+$", line[:i])     # `new Gauge(1).Twice`: the creation is the receiver
    return None if depth else created.start() if created else i


def param_count(signature: str) -> int:
    """How many parameters the first parameter list of `signature` declares."""
    match = _PARAMS.search(signature)
    if match is None or not match.group(1).strip():
        return 0
    depth, count = 0, 1
    for ch in match.group(1):
        depth += ch == "<"
        depth -= ch == ">"
        count += ch == "," and depth == 0
    return count


def argument_commas(line: str, open_at: int) -> tuple[int | None, list[int]]:
    """The closing parenthesis of the call opened at `line[open_at]` (None: not on the line) and the
    commas between its arguments."""
    depth, commas, quote = 0, [], None
    for i in range(open_at, len(line)):
        ch = line[i]
        if quote:
            quote = None if ch == quote and line[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i, commas
        elif ch == "," and depth == 1:
            commas.append(i)
    return None, commas
