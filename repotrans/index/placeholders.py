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

_THROWS = re.compile(r"\{(?:" + "|".join(_PLACEHOLDER_STATEMENTS[:2]) + r")\}", re.IGNORECASE)
_WEAK_FORMS = (("empty", re.compile(r"\{\}")), ("default", re.compile(r"\{return default(\([^()]*\))?;\}")),
               ("return", re.compile(r"\{return;\}")))
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


def _normal(body: str) -> str:
    text = re.sub(r"\s+", " ", _COMMENTS.sub("", body)).strip()
    return re.sub(r" ?([{}();=>.,]) ?", r"\1", text)


def placeholder_form(body: str | None) -> str | None:
    """Which placeholder a body is: "throws" (`throw new NotImplementedException()` and its usual
    spellings, block or expression-bodied), "accessor throws" (a property or indexer with an accessor that
    throws so, the others written), or a weaker form that is often a complete body: "empty" (`{ }`),
    "default" (`return default;`), "return" (`return;`), "literal" (`return null;`, `return false;`, `return 0;`);
    None when the body is no placeholder."""
    if body is None:
        return None
    text = _normal(body)
    accessors = _ACCESSORS.fullmatch(text)
    if accessors:
        forms = [placeholder_form(a.group(1)) if a.group(1) != ";" else None
                 for a in _ACCESSOR.finditer(accessors.group(1))]
        if any(f in ("throws", "accessor throws") for f in forms):
            return "throws" if all(f is not None for f in forms) else "accessor throws"
        return forms[0] if forms and all(f is not None for f in forms) else None
    if text.startswith("=>"):
        expr = text[2:].rstrip(";")
        text = "{" + (expr if expr.startswith("throw ") else f"return {expr}") + ";}"
    if _THROWS.fullmatch(text):
        return "throws"
    for name, pattern in _WEAK_FORMS:
        if pattern.fullmatch(text):
            return name
    return "literal" if _PLACEHOLDER.fullmatch(text) else None


def java_does_nothing(body: str | None) -> bool:
    """A Java body that is itself one of the weak forms (`{}`, `return null;`, `return false;`, ...): a C#
    counterpart in such a form is a faithful translation, not a placeholder."""
    if body is None:
        return True
    return re.fullmatch(r"\{(return( (null|0|0L|0\.0|0d|0f|false|\"\"))?;)?\}", _normal(body)) is not None
