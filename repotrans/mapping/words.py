"""Names as words: a Java name and a C# name are the same words when the Java name, read without case and
underscores, is the C# name's words in order, each written out or abbreviated as code abbreviates it
(data/abbreviations.json, a list of words with their abbreviations, either side may hold the short form):
decode_base64 ~ DecodeBase64, init_key ~ InitializeKey, gensalt ~ GenerateSalt, hashpw ~ HashPassword."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

ABBREVIATIONS_FILE = Path(__file__).parent / "data" / "abbreviations.json"
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9_]|$)|[A-Z]?[a-z]+|[0-9]+")


@lru_cache(maxsize=1)
def _spellings() -> dict[str, frozenset[str]]:
    """Each listed word and each abbreviation -> every way it may be written (itself included)."""
    data = json.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))["abbreviations"]
    out: dict[str, set[str]] = {}
    for word, shorts in data.items():
        for form in (word, *shorts):
            out.setdefault(form, {form}).update((word, *shorts))
    return {form: frozenset(forms) for form, forms in out.items()}


def words(name: str) -> list[str]:
    """A PascalCase, camelCase or snake_case name's words, lower case (`EKSKey` -> eks, key)."""
    return [w.lower() for w in _WORD.findall(name)]


@lru_cache(maxsize=65536)
def same_words(java: str, cs: str) -> bool:
    """Whether `java` spells the words of `cs` (case and underscores aside), each written out or abbreviated."""
    text = java.replace("_", "").lower()
    cs_words = words(cs)
    if not text or not cs_words or not text.isalnum():
        return False
    spellings = _spellings()
    ends = {0}                          # where the text may stand after the words read so far
    for word in cs_words:
        ends = {at + len(form) for at in ends for form in spellings.get(word, (word,)) if text.startswith(form, at)}
        if not ends:
            return False
    return len(text) in ends
