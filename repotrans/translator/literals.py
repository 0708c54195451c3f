"""Java literals as C# must write them: a constant cast outside the C# type's range, and Java's octal
escapes (C# has none)."""
from __future__ import annotations

import re

_CAST_RANGE = {"byte": (0, 255), "sbyte": (-128, 127), "short": (-32768, 32767), "ushort": (0, 65535),
               "char": (0, 65535), "uint": (0, 2**32 - 1), "ulong": (0, 2**64 - 1)}
_INT_LITERAL = re.compile(r"^\(?([-+]?)\s*(0[xX][0-9a-fA-F_]+|\d[\d_]*)\)?$")


def out_of_range(cs_type: str, value: str) -> bool:
    """Whether `value` is an integer literal outside `cs_type`'s range (a constant cast C# refuses)."""
    bounds, literal = _CAST_RANGE.get(cs_type), _INT_LITERAL.match(value.strip())
    if bounds is None or literal is None:
        return False
    digits = literal.group(2).replace("_", "")
    number = int(digits, 16 if digits[:2].lower() == "0x" else 10) * (-1 if literal.group(1) == "-" else 1)
    return not bounds[0] <= number <= bounds[1]


_OCTAL_ESCAPE = re.compile(r"\\(\\|[0-3][0-7]{0,2}|[4-7][0-7]?)")


def octal_escapes(literal: str) -> str:
    """Java's octal escapes (`"\\000"` is one NUL) as C# escapes (C# has none: `"\\000"` is NUL and "00")."""
    return _OCTAL_ESCAPE.sub(lambda m: m.group(0) if m.group(1) == "\\" else f"\\u{int(m.group(1), 8):04x}", literal)

