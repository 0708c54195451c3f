"""Filling jdk_map.toml templates: placeholders, receivers, Java format strings; unboxing."""
from __future__ import annotations

import re

Typed = tuple[str, "str | None"]
BOXED = {"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte", "Character": "char",
         "Boolean": "boolean", "Double": "double", "Float": "float"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_PRIMARY = re.compile(r'[A-Za-z_@][\w@]*(\.[\w@]+|\([^()]*\)|\[[^\[\]]*\])*|"(?:\\.|[^"\\])*"|\(.*\)')
_FORMAT_SPEC = re.compile(r"%(\d+\$)?([-#+ 0,(]*)(\d+)?(\.\d+)?([a-zA-Z%])")
_PIECE = "\x01(\\d+)\x02"          # a non-literal piece of a concatenated format, where digits may stand
_PIECED_SPEC = re.compile(r"%(\d+\$)?([-#+ 0,(]*)((?:\d|\x01\d+\x02)+)?(\.(?:\d|\x01\d+\x02)+)?([a-zA-Z%])")
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_CHAR = re.compile(r"'(?:\\.|[^'\\])*'")


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
    """A Java format string literal ("%5.2f %s%n") -> a .NET composite format literal ("{0,5:F2} {1}\\n");
    also a concatenation of literals and values that supply a width or precision
    ("%12." + digits + "f" -> "{0,12:F" + digits + "}")."""
    pieces = _concatenation(literal)
    if pieces is None:
        return '"' + _net_format(literal[1:-1], _FORMAT_SPEC) + '"'
    body = "".join(p[1:-1] if _STRING.fullmatch(p) else f"\x01{i}\x02" for i, p in enumerate(pieces))
    def value(match: re.Match) -> str:
        piece = pieces[int(match.group(1))]
        return f'" + {piece if _PRIMARY.fullmatch(piece) else f"({piece})"} + "'
    return '"' + re.sub(_PIECE, value, _net_format(body, _PIECED_SPEC)) + '"'


def as_net_format(text: str) -> str:
    """A C# string expression holding a Java format (a literal or a concatenation starting with one) as a
    .NET composite format; anything else unchanged."""
    if _STRING.fullmatch(text) or _concatenation(text):
        return java_format_to_net(text)
    return text


def _concatenation(text: str) -> list[str] | None:
    """The top-level `+` operands of a C# expression that starts with a string literal, or None."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i = (_STRING if ch == '"' else _CHAR).match(text, i).end()
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "+" and depth == 0:
            pieces.append(text[start:i].strip())
            start = i + 1
        i += 1
    pieces.append(text[start:].strip())
    if len(pieces) < 2 or not _STRING.fullmatch(pieces[0]):
        return None
    return pieces


def _net_format(body: str, spec: re.Pattern) -> str:
    """The body of a Java format literal as a .NET composite format's body."""
    body = body.replace("{", "{{").replace("}", "}}")
    counter = iter(range(1000))

    def one(match: re.Match) -> str:
        index, flags, width, precision, conv = match.groups()
        if conv == "%":
            return "%"
        if conv == "n":
            return "\\n"
        if conv in "eE" and (not precision or precision[1:].isdigit()):
            fmt = f"0.{'0' * int(precision[1:] if precision else 6)}{conv}+00"
            return "{" + (str(int(index[:-1]) - 1) if index else str(next(counter))) + ":" + fmt + "}"
        slot = str(int(index[:-1]) - 1) if index else str(next(counter))
        fmt = ""
        if conv == "d" and "0" in flags and width and width.isdigit():     # Java's width counts the sign: -0007
            fmt = f":{'0' * int(width)};-{'0' * max(int(width) - 1, 1)}"
            width = None
        elif conv in "xX" and "0" in flags and width and width.isdigit():
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

    return spec.sub(one, body)


def format_args(arg_texts: list[str], arg_types: list[str | None]) -> str | None:
    """`String.format`'s arguments as .NET's: the format literal converted, a leading Locale dropped, and
    the arguments Java prints otherwise made to print alike (%b and %s of a boolean as true/false, %S
    upper-cased, %c of an int as a char). None when the format is not a literal."""
    if arg_types and arg_types[0] == "Locale":
        arg_texts, arg_types = arg_texts[1:], arg_types[1:]
    if not arg_texts or not (_STRING.fullmatch(arg_texts[0]) or _concatenation(arg_texts[0])):
        return None
    args, types = list(arg_texts[1:]), list(arg_types[1:]) + [None] * len(arg_texts)
    counter = iter(range(len(args) + 1000))
    pieces = _concatenation(arg_texts[0]) or [arg_texts[0]]
    for match in _FORMAT_SPEC.finditer("\x01".join(p[1:-1] for p in pieces if _STRING.fullmatch(p))):
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
