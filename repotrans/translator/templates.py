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
        if conv in "eE":
            fmt = f"0.{'0' * int(precision[1:] if precision else 6)}{conv}+00"
            return "{" + (str(int(index[:-1]) - 1) if index else str(next(counter))) + ":" + fmt + "}"
        slot = str(int(index[:-1]) - 1) if index else str(next(counter))
        fmt = ""
        if conv == "d" and "0" in flags and width:     # Java's width counts the sign: -0007
            fmt = f":{'0' * int(width)};-{'0' * max(int(width) - 1, 1)}"
            width = None
        elif conv in "xX" and "0" in flags and width:
            fmt = f":{conv}{width}"
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


def format_args(arg_texts: list[str], arg_types: list[str | None]) -> str | None:
    """`String.format`'s arguments as .NET's: the format literal converted, a leading Locale dropped, and
    the arguments Java prints otherwise made to print alike (%b and %s of a boolean as true/false, %S
    upper-cased, %c of an int as a char). None when the format is not a literal."""
    if arg_types and arg_types[0] == "Locale":
        arg_texts, arg_types = arg_texts[1:], arg_types[1:]
    if not arg_texts or not arg_texts[0].startswith('"'):
        return None
    args, types = list(arg_texts[1:]), list(arg_types[1:]) + [None] * len(arg_texts)
    counter = iter(range(len(args) + 1000))
    for match in _FORMAT_SPEC.finditer(arg_texts[0][1:-1]):
        index, conv = match.group(1), match.group(5)
        if conv in "%n":
            continue
        slot = int(index[:-1]) - 1 if index else next(counter)
        if slot >= len(args):
            continue
        if conv in "bB" or (conv in "sS" and prim(types[slot]) == "boolean"):
            args[slot] = f'({args[slot]} ? "true" : "false")'
        elif conv == "c" and prim(types[slot]) == "int":
            args[slot] = f"(char)({args[slot]})"
        if conv in "SB":
            args[slot] = f"Convert.ToString({args[slot]}).ToUpperInvariant()"
    return ", ".join([java_format_to_net(arg_texts[0])] + args)
