"""A C# file's layout as its maintainers write it (brace placement, indent unit, `} else` cuddling), and a
candidate member re-laid out in it, so code written into a port reads as the port's own.

The builtin emits Allman braces and four spaces; a model may answer in any layout. `file_style` reads the
file's habit from its own lines (majority vote; a file with no evidence keeps C#'s Allman default), and
`restyle` moves the candidate's braces and indentation to it without touching anything else: a line that
holds a `//` comment never takes a brace after it, and code with multi-line verbatim or raw strings is left
as it is (their text would change).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

_OPENS_BLOCK = re.compile(r"(\)|\belse|\btry|\bfinally|\bdo|\bget|\bset|\badd|\bremove|\bunchecked|\bchecked)\s*$")
_HEAD = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|partial"
                   r"|readonly|async|new|extern|unsafe)\s+)*(?:class|struct|interface|enum|namespace)\b")
_PROPERTY = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|new)\s+)+"
                       r"[\w<>\[\],.?]+(?:\s*<[^=;]*>)?\s+[\w.]+$")     # `public int Count`, `public string this[int i]` aside
_CUDDLED = re.compile(r"^\s*\}\s*(else|catch|finally)\b")
_CONTINUES = re.compile(r"^\s*(else|catch|finally)\b")


@dataclass(frozen=True)
class Style:
    """How a file lays out code: `allman` puts an opening brace on its own line; `unit` is one indent
    level ("\\t" or spaces); `cuddle` writes `} else` / `} catch` on one line."""
    allman: bool = True
    unit: str = "    "
    cuddle: bool = False


def _opens(line: str) -> bool:
    """Whether a code line (without its brace) heads a block: a declaration, a call's closing parenthesis,
    a control keyword, an accessor; never an initializer (`= {`, `new int[] {`)."""
    code = line.rstrip()
    return bool(_OPENS_BLOCK.search(code) or _HEAD.match(code) or _PROPERTY.match(code)) and not code.endswith("=")


def file_style(text: str) -> Style:
    """The style of a C# file, by majority over its lines."""
    lines = text.replace("\r\n", "\n").split("\n")
    own_line = same_line = cuddled = split = 0
    widths: Counter[int] = Counter()
    tabs = spaces = 0
    previous_indent = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "*", "/*", "#")):
            continue
        lead = line[:len(line) - len(line.lstrip())]
        if not stripped.endswith((";", "{", "}", ")")):     # data rows of a table, continued expressions
            continue
        tabs += lead.startswith("\t")
        spaces += lead.startswith(" ")
        if not lead.startswith("\t"):
            width = len(lead)
            if width > previous_indent:
                widths[width - previous_indent] += 1
            previous_indent = width
        if stripped == "{":
            own_line += 1
        elif stripped.endswith("{") and "//" not in stripped and _opens(stripped[:-1]):
            same_line += 1
        if _CUDDLED.match(line):
            cuddled += 1
        elif _CONTINUES.match(line) and i and lines[i - 1].strip() == "}":
            split += 1
    if tabs > spaces:
        unit = "\t"
    else:
        unit = " " * (max((w for w in widths if w in (2, 3, 4, 8)), key=lambda w: (widths[w], -w), default=4))
    return Style(allman=own_line >= same_line, unit=unit, cuddle=cuddled > split)


def _relevel(line: str, source_unit: str, unit: str) -> str:
    lead = line[:len(line) - len(line.lstrip())]
    if source_unit == "\t":
        levels, rest = lead.count("\t"), lead.replace("\t", "")
    else:
        expanded = lead.replace("\t", source_unit)
        levels, rest = divmod(len(expanded), len(source_unit))
        rest = " " * rest
    return unit * levels + rest + line.lstrip()


def restyle(code: str, style: Style) -> str:
    """The candidate laid out in `style`: indentation levels in its unit, braces and `} else` placed as
    it places them. Code with multi-line verbatim or raw strings is returned unchanged."""
    code = code.replace("\r\n", "\n")
    if '@"' in code or '"""' in code:
        return code
    lines = code.split("\n")
    candidate = file_style(code)
    if candidate.unit != style.unit:
        lines = [_relevel(l, candidate.unit, style.unit) if l.strip() else l for l in lines]
    if not style.cuddle:
        lines = _uncuddle(lines)
    if style.allman:
        lines = _split_braces(lines)
    else:
        lines = _join(lines, lambda prev, line: line.strip() == "{" and _opens(prev.strip()))
    if style.cuddle:
        lines = _join(lines, lambda prev, line: prev.strip() == "}" and bool(_CONTINUES.match(line)))
    return "\n".join(lines)


def _lead(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _uncuddle(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if _CUDDLED.match(line):
            out += [_lead(line) + "}", _lead(line) + line.strip()[1:].lstrip()]
        else:
            out.append(line)
    return out


def _split_braces(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.endswith("{") and stripped != "{" and "//" not in stripped and _opens(stripped[:-1]):
            out += [_lead(line) + stripped[:-1].rstrip(), _lead(line) + "{"]
        else:
            out.append(line)
    return out


def _join(lines: list[str], joins: Callable[[str, str], bool]) -> list[str]:
    """Each line `joins(previous, line)` accepts appended to the previous one, after a space (never to a
    line holding a `//` comment)."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].strip() and "//" not in out[-1] and joins(out[-1], line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
            continue
        out.append(line)
    return out
