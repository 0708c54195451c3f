"""Doc comments of indexed members, read on demand from the repositories (the index keeps none):
the `/** ... */` block or the run of `///` lines right before a declaration, as lower-case words
without markup (javadoc tags, XML tags, `{@link ...}` braces). Used as evidence by round 2.

A file whose bytes no longer match the index (edited, not re-indexed) gives no doc comments.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import TYPE_CHECKING

from repotrans.mapping.evidence import dice
from repotrans.index.model import Method

if TYPE_CHECKING:
    from repotrans.index.store import Index

MIN_WORDS = 4                    # fewer words than this on either side: no evidence
_MARKUP = re.compile(r"</?[A-Za-z][^>]*>|\{@\w+|@\w+|&\w+;")
_WORDS = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])")
_STOP = frozenset("the a an of to is and or in for this that if be by with it as on are returns return "
                  "param summary value from at which not".split())


class DocComments:
    """Doc comment words per member, reading each file once."""

    def __init__(self, index: Index):
        self.index = index
        self.files: dict[tuple[str, str], bytes | None] = {}
        self.cache: dict[str, Counter] = {}

    def words(self, m: Method) -> Counter:
        if m.id not in self.cache:
            self.cache[m.id] = _words(self._comment(m))
        return self.cache[m.id]

    def similarity(self, a: Method, b: Method) -> float | None:
        wa, wb = self.words(a), self.words(b)
        if sum(wa.values()) < MIN_WORDS or sum(wb.values()) < MIN_WORDS:
            return None
        return dice(wa, wb)

    def _source(self, side: str, path: str) -> bytes | None:
        key = (side, path)
        if key not in self.files:
            data = None
            try:
                data = (self.index.root(side) / path).read_bytes()
                info = self.index.file(side, path)
                if info is None or hashlib.sha256(data).hexdigest() != info.sha256:
                    data = None
            except OSError:
                data = None
            self.files[key] = data
        return self.files[key]

    def _comment(self, m: Method) -> str:
        data = self._source(m.side, m.path)
        if data is None:
            return ""
        before = data[max(0, m.start_byte - 4000):m.start_byte].decode("utf-8", "replace").rstrip()
        if before.endswith("*/"):
            start = before.rfind("/**")
            return before[start:] if start >= 0 else ""
        lines = []
        for line in reversed(before.splitlines()):
            stripped = line.strip()
            if not stripped.startswith("///"):
                break
            lines.append(stripped[3:])
        return "\n".join(reversed(lines))


def _words(comment: str) -> Counter:
    text = _MARKUP.sub(" ", comment)
    return Counter(w.lower() for w in _WORDS.findall(text) if w.lower() not in _STOP)
