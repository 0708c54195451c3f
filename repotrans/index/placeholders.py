"""Recognise placeholder C# bodies: methods a port declared but has not translated yet."""
from __future__ import annotations

import re

_PLACEHOLDER_STATEMENTS = [
    r"throw new (System\.)?NotImplementedException\((\"[^\"]*\")?\);",
    r"throw new (System\.)?NotSupportedException\(\"(TODO|not implemented|not yet implemented)[^\"]*\"\);",
    r"return default(\([^()]*\))?;",
    r"return;",
    r"return (null|0|0L|0\.0|0\.0d|0d|0f|0\.0f|false|'\\0'|\"\");",
    r"",
]
_PLACEHOLDER = re.compile(r"\{(?:" + "|".join(_PLACEHOLDER_STATEMENTS) + r")\}", re.IGNORECASE)
_ACCESSOR = re.compile(r"(?:(?:private|protected|internal) )*(?:get|set)(\{[^{}]*\}|=>[^;{}]*;|;)")
_ACCESSORS = re.compile(r"\{((?:" + _ACCESSOR.pattern + r")+)\}")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)

PLACEHOLDER_BODY = "{\n    throw new NotImplementedException();\n}"


def is_placeholder(body: str | None) -> bool:
    """True when a C# method body does nothing but stand in for a translation.

    Accepts block bodies (`{ throw new NotImplementedException(); }`, `{ return default(T); }`,
    `{ return null; }`, `{ }`, ...) and expression bodies (`=> throw new NotImplementedException();`).
    An abstract or interface member (body None) is not a placeholder: there is nothing to translate.
    """
    if body is None:
        return False
    text = re.sub(r"\s+", " ", _COMMENTS.sub("", body)).strip()
    text = re.sub(r" ?([{}();=>.,]) ?", r"\1", text)
    accessors = _ACCESSORS.fullmatch(text)
    if accessors:               # a property or indexer: a placeholder when every accessor is one
        return all(is_placeholder(a.group(1)) for a in _ACCESSOR.finditer(accessors.group(1)))
    if text.startswith("=>"):
        expr = text[2:].rstrip(";")
        text = "{" + (expr if expr.startswith("throw ") else f"return {expr}") + ";}"
    return bool(_PLACEHOLDER.fullmatch(text))
