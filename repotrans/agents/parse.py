"""Read the formats the templates ask for: one JSON object, a ```csharp block, MORE_CONTEXT lines."""
from __future__ import annotations

import json
import re

FENCE = re.compile(r"```([A-Za-z#+-]*)[ \t]*\n(.*?)```", re.S)
CSHARP_TAGS = {"csharp", "cs", "c#", "cshar"}


def json_object(text: str) -> dict | None:
    """The first JSON object in `text` (bare or fenced), or None."""
    for match in FENCE.finditer(text):
        found = _first_object(match.group(2))
        if found is not None:
            return found
    return _first_object(text)


def _first_object(text: str) -> dict | None:
    decoder = json.JSONDecoder()
    for i, ch in enumerate(text):
        if ch == "{":
            try:
                value, _ = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    return None


def csharp_block(text: str) -> str | None:
    """The C# code block of an answer: the first fence tagged csharp/cs, else the only untagged one."""
    blocks = [(m.group(1).lower(), m.group(2)) for m in FENCE.finditer(text)]
    for tag, body in blocks:
        if tag in CSHARP_TAGS:
            return body.strip("\n")
    untagged = [b for t, b in blocks if t == ""]
    if len(untagged) == 1:
        return untagged[0].strip("\n")
    return None


def more_context(text: str) -> list[dict]:
    """Tool calls requested by a reflection (`MORE_CONTEXT: {...}` lines); malformed lines are skipped."""
    calls = []
    for line in text.splitlines():
        line = line.strip().strip("`")
        if not line.upper().startswith("MORE_CONTEXT:"):
            continue
        value = line.split(":", 1)[1].strip()
        if value.lower() in ("none", ""):
            continue
        obj = _first_object(value)
        if obj and isinstance(obj.get("tool"), str):
            calls.append({"tool": obj["tool"], "arguments": obj.get("arguments") or {}})
    return calls


def reflection_text(text: str) -> str:
    """The analysis without the MORE_CONTEXT lines."""
    kept = [l for l in text.splitlines() if not l.strip().strip("`").upper().startswith("MORE_CONTEXT:")]
    return "\n".join(kept).strip()
