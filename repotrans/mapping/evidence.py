"""Language-neutral evidence that a Java member and a C# member are the same: name words, body tokens
and shared literals.

Bodies are compared as bags of normalised tokens: identifiers split into lower-case words
(`getErrorCorrectionLevel` -> error, correction, level; accessor words and keywords of either language
dropped, so `x.getRowCount()` and `x.RowCount` agree), string and number literals kept whole,
operators kept. Similarity is the Dice coefficient of the two bags.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?[fFdDlLmM]?|[A-Za-z_]\w*|'
                    r'[-+*/%&|^!<>=]=?|<<|>>|&&|\|\||[\[\](){}.,;?:~]')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_NOISE = frozenset("""
get set is has this base super new return var final readonly static public private protected internal
override virtual abstract void value throw throws if else for foreach while do switch case break continue
try catch finally in out ref using null true false instanceof as of
""".split())
_PUNCT = frozenset("{}();,.[]")
_TRIVIAL_LITERALS = frozenset({"0", "1", "-1", "2", '""', "0.0", "0.0f", "1.0"})


@lru_cache(maxsize=65536)
def name_words(name: str) -> frozenset[str]:
    """Lower-case words of an identifier without accessor prefixes (`getRowCountUpperPart` -> row, count,
    upper, part)."""
    words = [w.lower() for w in _WORD.findall(name.rsplit(".", 1)[-1])]
    while len(words) > 1 and words[0] in ("get", "set", "is", "has"):
        words = words[1:]
    return frozenset(words)


def dice(a: frozenset[str] | Counter, b: frozenset[str] | Counter) -> float:
    """Dice coefficient of two sets or bags (0 when both are empty)."""
    if isinstance(a, Counter):
        total = sum(a.values()) + sum(b.values())
        if not total:
            return 0.0
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        return 2 * sum(min(n, big[t]) for t, n in small.items() if t in big) / total   # |a & b| of positive counts
    total = len(a) + len(b)
    return 2 * len(a & b) / total if total else 0.0


@lru_cache(maxsize=16384)
def body_tokens(body: str | None) -> Counter:
    """The body as a bag of normalised tokens (empty for no body or an auto-property `{ get; set; }`)."""
    if not body:
        return Counter()
    out: Counter = Counter()
    for tok in _TOKEN.findall(_COMMENT.sub(" ", body)):
        first = tok[0]
        if first.isalpha() or first == "_":
            out.update(w.lower() for w in _WORD.findall(tok) if w.lower() not in _NOISE)
        elif first.isdigit() or first in "\"'":
            out[tok.rstrip("fFdDlLmM") if first.isdigit() else tok] += 1
        elif tok not in _PUNCT:
            out[tok] += 1
    return out


@lru_cache(maxsize=16384)
def literals(body: str | None) -> frozenset[str]:
    """String and number literals of a body, except trivial ones (0, 1, "")."""
    return frozenset(t for t in body_tokens(body) if (t[0].isdigit() or t[0] in "\"'") and t not in _TRIVIAL_LITERALS)


def body_similarity(java_body: str | None, cs_body: str | None) -> float | None:
    """Dice similarity of two bodies' tokens; None when either has too little to compare."""
    a, b = body_tokens(java_body), body_tokens(cs_body)
    if sum(a.values()) < 3 or sum(b.values()) < 3:
        return None
    return dice(a, b)
