"""Keep a tool result under a size budget, saying what was cut."""
from __future__ import annotations

import json

MAX_RESULT_CHARS = 6000
MIN_STRING = 200          # strings shorter than this are never cut


def size(obj) -> int:
    return len(json.dumps(obj, ensure_ascii=False))


def bound(result: dict, limit: int = MAX_RESULT_CHARS) -> dict:
    """Shrink the biggest list (drop its tail) or string (cut its end) until `result` fits in `limit`.

    Adds `truncated`: one note per shrunk item, e.g. "members: 40 of 112 shown".
    """
    if size(result) <= limit:
        return result
    notes: dict[str, str] = {}
    originals: dict[str, int] = {}
    while size(result) + size(notes) + 20 > limit:
        target = _biggest(result, "")
        if target is None:
            break
        parent, key, path, value = target
        if isinstance(value, list):
            originals.setdefault(path, len(value))
            keep = max(1, len(value) * 3 // 4) if len(value) > 4 else len(value) - 1
            parent[key] = value[:keep]
            notes[path] = f"{path}: {keep} of {originals[path]} shown"
        else:
            originals.setdefault(path, len(value))
            excess = size(result) + size(notes) + 40 - limit
            keep = max(MIN_STRING // 2, len(value) - max(excess, len(value) // 4))
            parent[key] = value[:keep] + " ..."
            notes[path] = f"{path}: first {keep} of {originals[path]} characters shown"
    result["truncated"] = "; ".join(notes.values())
    return result


def _biggest(obj, path: str):
    """(parent, key, path, value) of the largest shrinkable list or string inside `obj`."""
    best, best_size = None, 0
    items = obj.items() if isinstance(obj, dict) else enumerate(obj)
    for key, value in items:
        sub = f"{path}.{key}" if path and isinstance(key, str) else f"{path}[{key}]" if path else str(key)
        if isinstance(value, (dict, list)):
            inner = _biggest(value, sub)
            if inner is not None:
                s = size(inner[3])
                if s > best_size:
                    best, best_size = inner, s
        if isinstance(value, list) and len(value) > 1 or isinstance(value, str) and len(value) > MIN_STRING:
            s = size(value)
            if s > best_size:
                best, best_size = (obj, key, sub, value), s
    return best
