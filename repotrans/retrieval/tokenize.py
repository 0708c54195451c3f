"""Identifier-aware tokenizer for BM25 over Java and C# code.

Identifiers are split on snake_case underscores and on camelCase / PascalCase humps
("parseHTTPResponse" -> parse, http, response); every token is lower-cased. A compound
identifier also yields itself whole ("parsehttpresponse"), so an exact name match outranks
a bag of shared parts. Punctuation, operators and string quotes are not tokens.
"""
from __future__ import annotations

import re

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# An acronym (stops before a capitalised word), a capitalised or lower word, or digits.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def identifier_parts(identifier: str) -> list[str]:
    """The lower-cased parts of one identifier: `get_HTTPStatus2` -> get, http, status, 2."""
    return [p.lower() for chunk in identifier.split("_") for p in _PART.findall(chunk)]


def identifier_tokens(text: str) -> list[str]:
    """Tokens of a code snippet, in order: each identifier's parts, then the whole if it had several."""
    tokens: list[str] = []
    for identifier in _IDENTIFIER.findall(text):
        parts = identifier_parts(identifier)
        tokens.extend(parts)
        if len(parts) > 1:
            tokens.append("".join(parts))
    return tokens
