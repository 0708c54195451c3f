"""What C# compilers say, read once for every toolchain: located diagnostics (`file(line,col): error
CSxxxx: message`, as mcs and MSBuild print them) and bare ones (`error CSxxxx: message`) become
Diagnostics, deduplicated; and the C# language version a set of projects allows."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from repotrans.verdicts.results import Diagnostic

# (compiler's file, line) -> (file in the target, line there, candidate line), or None: leave the line out
Place = Callable[[str, int], "tuple[str, int, int | None] | None"]


def parse_diagnostics(output: str, located: re.Pattern, bare: re.Pattern, place: Place) -> list[Diagnostic]:
    """Diagnostics of every line `located` (groups file, line, col, sev, code, msg) or `bare` (groups
    code, msg, optionally sev) matches. `place` maps a file to its path in the target and a line to the
    candidate's (or leaves the line out); a warning counts only inside the candidate, a bare line only as an error."""
    diags: list[Diagnostic] = []
    seen = set()
    for text in output.splitlines():
        m = located.match(text.strip())
        if m:
            placed = place(m.group("file"), int(m.group("line")))
            if placed is None:
                continue
            file, line, cand_line = placed
            if m.group("sev") == "warning" and cand_line is None:
                continue
            diag = Diagnostic(code=m.group("code"), message=m.group("msg").strip(), file=file,
                              line=line, column=int(m.group("col")), candidate_line=cand_line,
                              severity=m.group("sev"))
        else:
            m = bare.match(text.strip())
            if not m or (m.groupdict().get("sev") or "error") != "error":
                continue
            diag = Diagnostic(code=m.group("code"), message=m.group("msg").strip(), file="", line=0, column=0,
                              severity="error")
        key = (diag.code, diag.file, diag.line, diag.column, diag.message)
        if key not in seen:
            seen.add(key)
            diags.append(diag)
    return diags


def lowest_language_version(versions: Iterable[str], default: str) -> str:
    """The C# version every one of `versions` allows: the lowest number, else (only names such as
    `latest`) the first by name; `default` when there are none."""
    found = sorted(set(v for v in versions if v))
    numeric = [v for v in found if _as_float(v) is not None]
    if numeric:
        return min(numeric, key=_as_float)
    return found[0] if found else default


def _as_float(v: str) -> float | None:
    try:
        return float(v)
    except ValueError:
        return None
