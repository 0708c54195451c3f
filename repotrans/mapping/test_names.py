"""Test names as mapping evidence: a JUnit test `testIsFull` paired with an NUnit test `TestIsCodeFull`
names the same member on both sides, so Java's `isFull()` is the port's `IsCodeFull()`.

For each pair of test methods whose names differ after `test` (either case, an optional `_`), the Java
stem is the port's rename of a member of the type the test class tests (`EncoderTest` tests `Encoder`:
the test class is named after it). A Java method still unmatched whose name (or accessor stem) is that
stem is paired with the one unclaimed member of its type's counterpart (or an extension class's) named
by the C# stem the port's way (`X`, `GetX`, `IsX`, a property `X`), on two more signals than the test
names alone: its name carries the C# stem and the signature agrees through the type map (drifts
included, drift.signature_fit). Each pairing says which tests named it.
"""
from __future__ import annotations

import re
from collections import defaultdict

from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.drift import signature_fit
from repotrans.mapping.matches import MethodMatch
from repotrans.mapping.typematch import test_stem

CONFIDENCE = 0.7
_TEST = re.compile(r"^[Tt]est_?([A-Za-z]\w*)$")
_ACCESSOR = re.compile(r"^(get|is|has|set)(?=[A-Z])")


def _stem(name: str) -> str | None:
    found = _TEST.match(name)
    return found.group(1)[:1].upper() + found.group(1)[1:] if found else None


def test_renames(matches: list[MethodMatch], methods: dict[str, Method], types: dict[str, TypeDecl],
                 test_types: set[str]) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(tested Java type's simple name, Java stem) -> (C# stem, Java test id, C# test id), from the test
    method pairs whose stems differ; a stem two pairs rename differently is left out."""
    out: dict[tuple[str, str], set[tuple[str, str, str]]] = defaultdict(set)
    for m in matches:
        jm, cm = methods.get(m.source_id), methods.get(m.target_id)
        if jm is None or cm is None or jm.type_id not in test_types:
            continue
        js, cs = _stem(jm.name), _stem(cm.name)
        if js and cs and js.lower() != cs.lower():
            out[(test_stem(types[jm.type_id].name) or types[jm.type_id].name, js)].add((cs, jm.id, cm.id))
    return {key: next(iter(found)) for key, found in out.items() if len({f[0] for f in found}) == 1}


def match_by_test_names(unmatched: dict[str, str], methods: dict[str, Method], types: dict[str, TypeDecl],
                        counterpart: dict[str, str], cs_members: dict[str, list[Method]],
                        renames: dict[tuple[str, str], tuple[str, str, str]], claimed: set[str],
                        project: dict[str, set[str]], enums: frozenset[str]) -> list[MethodMatch]:
    """Pairs for the unmatched Java methods whose test was renamed with them (see the module doc)."""
    out = []
    for jid in sorted(unmatched):
        jm = methods.get(jid)
        if jm is None or jm.kind != "method" or jm.type_id not in counterpart:
            continue
        jt = types[jm.type_id]
        pascal = jm.name[:1].upper() + jm.name[1:]
        stems = {pascal, _ACCESSOR.sub("", jm.name)}
        found = next((renames[(jt.name, s)] for s in stems if (jt.name, s) in renames), None)
        if found is None:
            continue
        cs_stem, java_test, cs_test = found
        bare = _ACCESSOR.sub("", cs_stem[:1].lower() + cs_stem[1:])
        bare = bare[:1].upper() + bare[1:]
        names = {cs_stem, bare, "Get" + bare, "Is" + bare, "Has" + bare}
        ct = types.get(counterpart[jm.type_id])
        fits = []
        for cm in cs_members.get(counterpart[jm.type_id], []):
            if cm.id in claimed or cm.name not in names or cm.kind not in ("method", "property"):
                continue
            if cm.kind == "property" and (jm.params or jm.return_type in (None, "void")):
                continue
            notes = signature_fit(jm, cm, project=project, enums=enums, java_type=jt, cs_type=ct)
            if notes is not None:
                fits.append((cm, notes))
        if len(fits) != 1:
            continue
        cm, notes = fits[0]
        claimed.add(cm.id)
        evidence = (f"test names {java_test.split(':', 1)[1]} ~ {cs_test.split(':', 1)[1]}",
                    f"name carries {cs_stem}", "signature agrees" + (f" ({'; '.join(notes)})" if notes else ""))
        out.append(MethodMatch(jid, cm.id, CONFIDENCE, "test names", evidence))
    return out
