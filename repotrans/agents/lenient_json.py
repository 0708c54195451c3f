"""JSON as models write it: find whole top-level objects in prose, forgive the usual slips, say what is wrong.

Forgiven: trailing commas, single-quoted strings, // and /* */ comments, Python literals (True, None),
unquoted keys. An object that still does not parse gives a JsonProblem naming the place and the cause.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_BARE_KEY = re.compile(r"[A-Za-z_][\w-]*")


@dataclass
class JsonProblem:
    """Why the JSON in an answer could not be read, worded for the model."""
    message: str

    def __str__(self) -> str:
        return self.message


def spans(text: str, opening: str = "{") -> list[tuple[int, int, bool]]:
    """(start, end, closed) of every top-level value opened by a char in `opening`; inner ones are not listed.

    Quotes count only inside a value, so an apostrophe in the prose around it does no harm."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in opening:
            end, closed = _match(text, i)
            out.append((i, end, closed))
            i = end
        else:
            i += 1
    return out


def _match(text: str, start: int) -> tuple[int, bool]:
    """End (exclusive) of the bracketed value at `start`, skipping strings and comments."""
    depth, i, n = 0, start, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            i = _string_end(text, i)
            continue
        if text.startswith("//", i):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
            continue
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1, True
        i += 1
    return n, False


def _string_end(text: str, i: int) -> int:
    quote, j, n = text[i], i + 1, len(text)
    while j < n:
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            return j + 1
        if text[j] == "\n" and quote == "'":      # an apostrophe, not a string: stop at the line
            return i + 1
        j += 1
    return n


def repair(src: str) -> str:
    """The same value in strict JSON syntax, as far as the usual slips go."""
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        ch = src[i]
        if ch in "\"'":
            end = _string_end(src, i)
            body = src[i + 1:end - 1] if end - i >= 2 and src[end - 1] == ch else src[i + 1:end]
            if ch == "'":
                body = body.replace("\\'", "'").replace('"', '\\"')
            out.append('"' + body + '"')
            i = end
        elif src.startswith("//", i):
            nl = src.find("\n", i)
            i = n if nl < 0 else nl
        elif src.startswith("/*", i):
            close = src.find("*/", i + 2)
            i = n if close < 0 else close + 2
        elif ch == ",":
            j = i + 1
            while j < n and src[j].isspace():
                j += 1
            if j < n and src[j] in "}]":          # trailing comma
                i += 1
                continue
            out.append(ch)
            i += 1
        elif ch.isalpha() or ch == "_":
            m = _BARE_KEY.match(src, i)
            word = m.group(0)
            rest = src[m.end():].lstrip()
            prev = "".join(out).rstrip()[-1:]
            if rest.startswith(":") and prev in ("{", ","):
                out.append(json.dumps(word))           # unquoted key
            else:
                out.append(PY_LITERALS.get(word, word))
            i = m.end()
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def loads(src: str) -> object:
    """Parse one value strictly, then after `repair`; raises ValueError with a message for the model."""
    try:
        return json.loads(src)
    except json.JSONDecodeError:
        pass
    fixed = repair(src)
    try:
        return json.loads(fixed)
    except json.JSONDecodeError as exc:
        near = fixed[max(0, exc.pos - 25):exc.pos + 15].replace("\n", " ")
        raise ValueError(f"{exc.msg} at line {exc.lineno} column {exc.colno} (near `{near}`)") from None


def first_object(text: str, keys: tuple[str, ...] = ()) -> tuple[dict | None, JsonProblem | None]:
    """The first top-level JSON object in `text` (preferring one with any of `keys`), or why there is none."""
    found: list[dict] = []
    problem: JsonProblem | None = None
    for start, end, closed in spans(text):
        snippet = text[start:end]
        if not closed:
            problem = problem or JsonProblem(f"the JSON object `{_short(snippet)}` is not closed "
                                             "(a missing `}`, or the answer was cut off)")
            continue
        try:
            value = loads(snippet)
        except ValueError as exc:
            problem = problem or JsonProblem(f"the JSON object `{_short(snippet)}` is not valid JSON: {exc}")
            continue
        if isinstance(value, dict):
            if not keys or any(k in value for k in keys):
                return value, None
            found.append(value)
    if found:
        return found[0], None
    return None, problem or JsonProblem("no JSON object found")


def values(text: str) -> list[object]:
    """Every top-level object or array in `text` that parses (leniently), in order."""
    out = []
    for start, end, closed in spans(text, "{["):
        if closed:
            try:
                out.append(loads(text[start:end]))
            except ValueError:
                continue
    return out


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."
