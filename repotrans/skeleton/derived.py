"""Bodies for members only the port has, where they are pure functions of members Java has.

skeleton.port_uses gives a member the port's own code uses and no Java member gives a placeholder typed by
those uses (libphonenumber's `PhoneNumberMatch.Length`: Java has `end()`, the port's `MoveNext` reads
`Start + Length`). Where the regenerated type holds the members a derivation needs, the placeholder becomes
that derivation: a span's `Length` is `End - Start`, its `End` `Start + Length`, a collection's `Count` its
`Size`, `IsEmpty` a count of 0. The operands are parameterless instance members of the same type, of the
placeholder's numeric type (an int for a long, an int count for `IsEmpty`). A placeholder no derivation fits stays, and
`why_not` says which members each derivation lacks.
"""
from __future__ import annotations

import re

from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER
from repotrans.skeleton.port_uses import PORT_ONLY

READS = {"int": ("int",), "long": ("int", "long"), "bool": ("int",)}     # a member's type -> its operands' types
DERIVATIONS: dict[str, list[tuple[tuple[str, ...], str]]] = {    # member -> (operands, formula), best first
    "Length": [(("End", "Start"), "{End} - {Start}")],
    "End": [(("Start", "Length"), "{Start} + {Length}")],
    "Count": [(("Size",), "{Size}")],
    "IsEmpty": [(("Count",), "{Count} == 0"), (("Size",), "{Size} == 0")],
}
_PROPERTY = re.compile(r"^(?P<head>\s*public\s+(?P<type>[\w.]+)\s+(?P<name>\w+)\s*)\{\s*get\s*\{\s*"
                       + re.escape(PLACEHOLDER) + r"\s*\}\s*\}\s*$")
_MEMBER = re.compile(r"^\s*(?:(?:public|internal|protected|virtual|override|sealed|new)\s+)+(?P<type>[\w.]+)\s+"
                     r"(?P<name>\w+)\s*(?P<call>\(\s*\))?\s*(?:\{|=>|$)")


def _owner(f: SkeletonFile, i: int) -> int | None:
    """The index of the type header line that line `i` belongs to."""
    return max((j for j in range(i) if f.lines[j].kind == "type"), default=None)


def _operands(f: SkeletonFile, i: int, cs_type: str) -> dict[str, str]:
    """Name -> how to read it (`Start`, `End()`) of the parameterless instance members of the type holding
    line `i` that a member of `cs_type` may be computed from (READS)."""
    owner, out = _owner(f, i), {}
    for j, line in enumerate(f.lines):
        if j == i or line.kind == "type" or line.text.lstrip().startswith("//") or " static " in f" {line.text} ":
            continue
        m = _MEMBER.match(line.text)
        if m and m["type"] in READS.get(cs_type, ()) and _owner(f, j) == owner:
            out[m["name"]] = m["name"] + ("()" if m["call"] else "")
    return out


def derive(files: list[SkeletonFile]) -> list[str]:
    """Give each typed placeholder of a port-only property the first derivation its type's members allow;
    what was derived, as `Type.Member: derived as ...`."""
    done = []
    for f in files:
        for i, line in enumerate(f.lines):
            m = _PROPERTY.match(line.text)
            if not (line.origin or "").endswith(PORT_ONLY) or m is None or m["name"] not in DERIVATIONS \
                    or (m["type"] == "bool") != (m["name"] == "IsEmpty"):
                continue
            have = _operands(f, i, m["type"])
            for operands, formula in DERIVATIONS[m["name"]]:
                if all(o in have for o in operands):
                    expr = formula.format(**have)
                    line.text = f"{m['head']}{{ get {{ return {expr}; }} }}"
                    done.append(f"{line.origin.split(' ', 1)[0]}: derived as {expr} (members Java has)")
                    break
    return done


def why_not(files: list[SkeletonFile]) -> list[str]:
    """Each port-only placeholder left: why no body was derived for it."""
    out = []
    for f in files:
        for i, line in enumerate(f.lines):
            if not (line.origin or "").endswith(PORT_ONLY) or PLACEHOLDER not in line.text:
                continue
            m = _PROPERTY.match(line.text)
            name = line.origin.split(" ", 1)[0]
            if m is None:
                out.append(f"{name}: a placeholder (the port calls it as a method: no derivation reads arguments)")
            elif m["name"] not in DERIVATIONS:
                out.append(f"{name}: a placeholder (no Java member gives it, and no derivation is known for "
                           f"{m['name']})")
            else:
                have = _operands(f, i, m["type"])
                needs = [" and ".join(f"{o}{'' if o in have else ' (missing)'}" for o in operands)
                         for operands, _ in DERIVATIONS[m["name"]]]
                out.append(f"{name}: a placeholder (no Java member gives it; as {m['type']} it needs "
                           + " or ".join(needs) + f" of {', '.join(READS.get(m['type'], ()))} type in its type)")
    return out
