"""The C# declaration is the contract for time: a Java `long` of milliseconds that the
port declares as `DateTime` (or `DateTime?`), converted where the translation meets the port's types.

ZXing's CalendarParsedResult keeps `long start, end` (millis, -1 for "no end") and wraps them in
`new Date(x)` for its getters; ZXing.Net keeps `DateTime start` and `DateTime? end`. For the fields
whose Java type is `long` and whose port type is `DateTime`/`DateTime?` (from the class's own declarations,
never a name list), the translation:
- reads `new Date(x)` as `x` (the port's value already is the date);
- writes Java's negative sentinel as the port's null: `x < 0L` -> `x == null`, `x >= 0L` -> `x != null`,
  and `x = c ? -1L : e;` -> `x = c ? null : (DateTime?)(e);`;
- adds a duration as one: `x + ms` -> `x + TimeSpan.FromMilliseconds(ms)`.
A member the port declares to return a DateTime where Java returns millis parses as .NET does:
`DateFormat f = new SimpleDateFormat(P, locale); return f.parse(s).getTime();` (f used for nothing else)
-> `return DateTime.ParseExact(s, P, CultureInfo.InvariantCulture);` (ZXing.Net's parseDateTimeString).
"""
from __future__ import annotations

import re
from dataclasses import replace

from repotrans.index.model import Method
from repotrans.translator.tool_outputs import TargetType

_DATES = {"DateTime": False, "DateTime?": True, "System.DateTime": False, "System.DateTime?": True,
          "Nullable<DateTime>": True}
_NEGATIVE = r"-\s*1L?"
_FORMAT = re.compile(r'^[ \t]*(?:final\s+)?(?:DateFormat|SimpleDateFormat|var)\s+(\w+)\s*=\s*new\s+SimpleDateFormat\(\s*'
                     r'("(?:[^"\\]|\\.)*")\s*(?:,[^;]*)?\)\s*;[ \t]*\n', re.M)
_RETURNS_DATE = re.compile(r"\b(?:System\.)?DateTime\??\s+[\w.]+\s*\(")
_OPERAND = r"(?:\w+(?:\.\w+)*(?:\([^()]*\))?|\d+L?)"


def millis_fields(own: TargetType | None) -> dict[str, bool]:
    """Field name -> whether the port's type is nullable, for the class's Java `long` fields the port
    declares as a DateTime under the same name."""
    if own is None:
        return {}
    out = {}
    for name, java in own.java_fields.items():
        port = (own.fields.get(name) or "").replace(" ", "")
        if java.strip() == "long" and port in _DATES:
            out[name] = _DATES[port]
    return out


def java_side(java: Method | str, fields: dict[str, bool]) -> Method | str:
    """The Java method (a Method or its text) with `new Date(x)` of a millis field read as `x`."""
    text = java if isinstance(java, str) else java.body
    if not fields or not text:
        return java
    names = "|".join(map(re.escape, fields))
    body = re.sub(rf"\bnew\s+(?:java\.util\.)?Date\s*\(\s*((?:this\.)?(?:{names}))\s*\)", r"\1", text)
    if body == text:
        return java
    return body if isinstance(java, str) else replace(java, body=body)


def cs_side(code: str, fields: dict[str, bool]) -> str:
    """The translated C# with the port's DateTime conventions for the millis fields (module doc)."""
    for name, nullable in fields.items():
        ref = rf"(?<![\w.])((?:this\.)?{re.escape(name)})"
        if nullable:
            code = re.sub(rf"{ref}\s*(?:<\s*0L?|==\s*{_NEGATIVE})(?![\w.])", r"\1 == null", code)
            code = re.sub(rf"{ref}\s*(?:>=\s*0L?|!=\s*{_NEGATIVE})(?![\w.])", r"\1 != null", code)
            code = re.sub(rf"{ref}(\s*=\s*[^;?]+\?\s*){_NEGATIVE}\s*:\s*([^;]+);",
                          lambda m: f"{m.group(1)}{m.group(2)}null : (DateTime?)({m.group(3).strip()});", code)
            code = re.sub(rf"{ref}(\s*=\s*[^;?]+\?\s*)([^;:]+?)\s*:\s*{_NEGATIVE}\s*;",
                          lambda m: f"{m.group(1)}{m.group(2)}(DateTime?)({m.group(3).strip()}) : null;", code)
        others = "|".join(map(re.escape, fields))
        code = re.sub(rf"{ref}\s*([+-])\s*(?!(?:this\.)?(?:{others})(?![\w.(]))({_OPERAND})(?![\w.(\[])",
                      r"\1 \2 TimeSpan.FromMilliseconds(\3)", code)
    return code


def translate_with_dates(java: Method | str, resolver, target: Method | None, translate) -> str:
    """`translate(java, resolver, target)` (java2cs.translate_method) with the class's millis fields
    converted at the port's DateTime boundary."""
    own = getattr(resolver, "_type", None)
    fields = millis_fields(own(None) if own is not None else None)
    code = cs_side(translate(java_side(java, fields), resolver, target), fields)
    declared = target.signature if isinstance(target, Method) else target or ""
    return parsed_dates(code) if _RETURNS_DATE.search(declared) else code


def parsed_dates(code: str) -> str:
    """A SimpleDateFormat local used only to parse, as DateTime.ParseExact, with Java's `.getTime()`
    (the millis) of the parsed value dropped: the port's member returns the DateTime itself."""
    for found in list(_FORMAT.finditer(code)):
        name, pattern = found.group(1), found.group(2)
        rest = code[:found.start()] + code[found.end():]
        parse = re.compile(rf"(?<![\w.]){re.escape(name)}\.Parse\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
        if len(re.findall(rf"(?<![\w.]){re.escape(name)}\b", rest)) != len(parse.findall(rest)):
            continue                        # the format is configured or used otherwise: keep Java's
        code = parse.sub(lambda m: f"DateTime.ParseExact({m.group(1).strip()}, {pattern}, "
                                   "System.Globalization.CultureInfo.InvariantCulture)", rest)
    return re.sub(r"(DateTime\.ParseExact\((?:[^()]|\([^()]*\))*\))\.GetTime\(\)", r"\1", code)
