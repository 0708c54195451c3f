"""Filling jdk_map.toml templates: placeholders, receivers, Java format strings; unboxing."""
from __future__ import annotations

import re

Typed = tuple[str, "str | None"]
BOXED = {"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte", "Character": "char",
         "Boolean": "boolean", "Double": "double", "Float": "float"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_PRIMARY = re.compile(r'[A-Za-z_@][\w@]*(\.[\w@]+|\([^()]*\)|\[[^\[\]]*\])*|"(?:\\.|[^"\\])*"|\(.*\)')
_FORMAT_SPEC = re.compile(r"%(\d+\$)?([-#+ 0,(]*)(\d+)?(\.\d+)?([a-zA-Z%])")


def prim(java_type: str | None) -> str | None:
    """Unbox: "Integer" -> "int"; other types unchanged."""
    return BOXED.get(java_type or "", java_type)


def fill(template: str, values: dict[str, str]) -> str:
    """Replace {name} placeholders that have a value; leave other braces alone.

    A value used as a receiver (`{0}.Length`) is parenthesised unless it is a simple primary."""
    def one(match: re.Match) -> str:
        value = values.get(match.group(1))
        if value is None:
            return match.group(0)
        if template[match.end():match.end() + 1] == "." and not _PRIMARY.fullmatch(value):
            return f"({value})"
        return value
    return _PLACEHOLDER.sub(one, template)


def java_format_to_net(literal: str) -> str:
    """A Java format string literal ("%5.2f %s%n") -> a .NET composite format literal ("{0,5:F2} {1}\\n")."""
    body = literal[1:-1].replace("{", "{{").replace("}", "}}")
    counter = iter(range(1000))

    def one(match: re.Match) -> str:
        index, flags, width, precision, conv = match.groups()
        if conv == "%":
            return "%"
        if conv == "n":
            return "\\n"
        slot = str(int(index[:-1]) - 1) if index else str(next(counter))
        fmt = ""
        if conv in "dxX" and "0" in flags and width:
            fmt = f":{'D' if conv == 'd' else conv}{width}"
            width = None
        elif conv in "xX":
            fmt = f":{conv}"
        elif conv in "fF":
            fmt = f":F{precision[1:] if precision else 6}"
        elif conv == "d" and "," in flags:
            fmt = ":N0"
        align = (f",-{width}" if "-" in flags else f",{width}") if width else ""
        return "{" + slot + align + fmt + "}"

    return '"' + _FORMAT_SPEC.sub(one, body) + '"'
