"""Keep a tool result under a size budget, saying what was cut."""
from __future__ import annotations

import json
from typing import Callable

MAX_RESULT_CHARS = 6000
MIN_STRING = 200          # strings shorter than this are never cut


def size(obj) -> int:
    return len(json.dumps(obj, ensure_ascii=False))


MAX_NAMED = 30            # names of left-out list items listed in the note


def bound(result: dict, limit: int = MAX_RESULT_CHARS, relevance: Callable[[str], int] | None = None) -> dict:
    """Shrink the biggest list or string until `result` fits in `limit`.

    A list of texts loses its least relevant items first when `relevance` scores them (items it scores
    above 0 and their neighbours are kept longest), else its tail; a string loses its end. Adds
    `truncated`: one note per shrunk item, e.g. "members: 40 of 112 shown; not shown: A, B (+70 more)".
    """
    if size(result) <= limit:
        return result
    notes: dict[str, str] = {}
    originals: dict[str, int] = {}
    first_seen: dict[str, list] = {}
    while size(result) + size(notes) + 20 > limit:
        target = _biggest(result, "")
        if target is None:
            break
        parent, key, path, value = target
        if isinstance(value, list):
            originals.setdefault(path, len(value))
            keep = max(1, len(value) * 3 // 4) if len(value) > 4 else len(value) - 1
            if relevance is not None and all(isinstance(v, str) for v in value):
                from repotrans.tools.relevance import member_name

                first_seen.setdefault(path, list(value))
                kept, _ = _by_relevance(value, keep, relevance)
                parent[key] = kept
                still = set(kept)
                names = [member_name(v) for v in first_seen[path] if v not in still]
                listed = ", ".join(names[:MAX_NAMED]) + (f" (+{len(names) - MAX_NAMED} more)"
                                                         if len(names) > MAX_NAMED else "")
                notes[path] = (f"{path}: {keep} of {originals[path]} shown, those the Java method uses and "
                               f"their neighbours first; not shown: {listed}")
            else:
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


def _by_relevance(items: list[str], keep: int, relevance: Callable[[str], int]) -> tuple[list[str], list[str]]:
    """(kept items in their order, cut items): the lowest score goes first, later items before earlier ones."""
    scores = [relevance(v) for v in items]
    ranked = list(scores)
    for i, s in enumerate(scores):                  # neighbours of what the method uses
        if s >= 2:
            for j in (i - 1, i + 1):
                if 0 <= j < len(items) and ranked[j] < 1:
                    ranked[j] = 1
    order = sorted(range(len(items)), key=lambda i: (-ranked[i], i))
    keep_ids = set(order[:keep])
    return ([v for i, v in enumerate(items) if i in keep_ids], [v for i, v in enumerate(items) if i not in keep_ids])


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
