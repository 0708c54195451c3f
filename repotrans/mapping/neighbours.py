"""Round 3 of member matching: evidence that does not depend on names, across every matched type pair.

A Java method rounds 1 and 2 left unmatched (its type matched) is looked for among the C# methods no
Java method claimed, by what surrounds it rather than by what it is called:
- matched callers: every Java method calling it (in its own type, or naming its type) whose C# counterpart
  is known; the candidate must be called by each of those C# counterparts (so it may live in another C#
  type: a member the port moved); an unmatched caller says nothing either way and is left out (one
  matched caller at least);
- matched callees: the Java methods it calls whose C# counterparts are known; the candidate's body must
  call the counterparts (CALLEE_SHARE of them);
- only members of C# types that are a Java type's counterpart: a helper the port added with no Java twin
  (SupportClass.WordCount for BitArray.words) is the learned API map's to answer, not a member's twin;
- the body under the mapping: Dice similarity of the bodies' tokens after each matched callee's Java
  name is rewritten to its C# name (evidence.body_similarity on the rewritten Java body).
A pair is kept when the callers agree and the body reaches BODY_WITH_CALLEES if the callees agree too,
else BODY_SEVERAL_CALLERS (two or more callers) or BODY_ALONE (one; a port often rewrites a helper's
calls, `bits.flip` into `bits.flipWhen`, so callees that disagree lower no score, they only raise none), or,
where the port rewrote the body, every matched callee is called, the types agree exactly and the doc
comments agree (DOC_REWRITTEN); a public method no Java code calls (an entry point: no caller can vouch for it)
is paired on that last evidence alone, with the one such member of its type's counterpart; where nothing fits so,
the one member the callers call named with the Java name's words but one misspelt (the port's typo) and as many
parameters; the parameters do not plainly disagree (C# may add up to MAX_ADDED_PARAMS), the candidate is the only one
and no other Java method wants it. An overloaded Java name is told apart by arity: an overload no other
overload of its type shares the parameter count of is called by the call sites with that many arguments
(its callers are the methods with such a call); overloads sharing a count are left alone.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.doc_comments import DocComments
from repotrans.index.typename import simple_name
from repotrans.mapping.evidence import body_similarity
from repotrans.mapping.matches import MethodMatch
from repotrans.mapping.signatures import Cand, Scorer
from repotrans.mapping.structural import MAX_ADDED_PARAMS, subsequence_agreement
from repotrans.mapping.words import words

CALLEE_SHARE = 0.5        # share of the matched callees the candidate's body must call
BODY_WITH_CALLEES = 0.3   # body similarity (under the mapping) needed when callers and callees agree
BODY_SEVERAL_CALLERS = 0.5  # ... when two or more matched callers agree and the callees do not
BODY_ALONE = 0.6          # ... when one matched caller agrees and the callees do not
DOC_REWRITTEN = 0.5       # doc comment similarity that stands in for the body when the port rewrote it
CONFIDENCE = 0.7
_CALL = re.compile(r"\b([^\W\d]\w*)\s*\(")


@dataclass
class Sides:
    """What round 3 reads: each side's methods by type, the types by id, and the type pairs."""
    java: dict[str, list[Method]]         # Java type id -> methods
    cs: dict[str, list[Method]]           # C# type id -> members
    types: dict[str, TypeDecl]            # both sides' types by id
    counterpart: dict[str, str]           # Java type id -> C# type id
    project: dict[str, set[str]]
    enums: frozenset[str]


def _calls(body: str | None) -> set[str]:
    return set(_CALL.findall(body or ""))


def arities(name: str, body: str | None) -> set[int]:
    """The argument counts of the calls of `name` in a body (`f()` 0, `f(a, g(b, c))` 2)."""
    out: set[int] = set()
    text = body or ""
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
        depth, count, empty, i = 1, 1, True, m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "," and depth == 1:
                count += 1
            elif ch == '"' or ch == "'":          # a literal's commas and parentheses are not the call's
                end = i + 1
                while end < len(text) and text[end] != ch:
                    end += 2 if text[end] == "\\" else 1
                i = end
            if depth and not ch.isspace():
                empty = False
            i += 1
        out.add(0 if empty else count)
    return out


def _names(name: str, body: str | None) -> bool:
    return re.search(rf"\b{re.escape(name)}\s*\(", body or "") is not None


class _Graph:
    """Name-level call graph of the Java side, for the names asked about, with the matches made so far."""

    def __init__(self, sides: Sides, matched: dict[str, Method]):
        self.matched = matched                                       # Java id -> C# member
        self.java = {m.id: m for ms in sides.java.values() for m in ms}
        self.declared: dict[str, list[Method]] = defaultdict(list)   # name -> Java methods of that name
        self.callers: dict[str, list[Method]] = defaultdict(list)    # name (of those asked) -> its Java callers
        self._reads: dict[str, set[str]] = {}                        # member id -> the names its body calls
        for m in self.java.values():
            self.declared[m.name].append(m)

    def calls(self, m: Method) -> set[str]:
        """The names `m`'s body calls (`name(`, either side), read once."""
        found = self._reads.get(m.id)
        if found is None:
            found = self._reads[m.id] = _calls(m.body)
        return found

    def find_callers(self, names: set[str]) -> None:
        """The Java callers of each of `names`, for callers_of."""
        for m in self.java.values():
            for name in self.calls(m) & names:
                self.callers[name].append(m)

    def callers_of(self, jm: Method) -> tuple[list[Method], int] | None:
        """jm's matched callers, or None when a caller cannot be told to call jm (and not another
        method of that name); with them, how many unmatched callers were left out (their C# side says nothing
        either way: a Java test the port renamed, a caller the port dropped)."""
        owners = {m.type_id for m in self.declared[jm.name]}
        overloaded = sum(1 for m in self.declared[jm.name] if m.type_id == jm.type_id) > 1
        out, left_out = [], 0
        for caller in self.callers.get(jm.name, ()):
            if caller.id == jm.id:
                continue
            if overloaded and len(jm.params) not in arities(jm.name, caller.body):
                continue                     # it calls another overload
            ours = caller.type_id == jm.type_id or (len(owners) == 1 and re.search(
                rf"\b{re.escape(simple_name(jm.type_id))}\b", caller.body or "") is not None)
            if not ours:
                if len(owners) == 1 or caller.type_id in owners:
                    continue                 # calls its own type's method of that name, or another route: unknown
                return None
            if caller.id in self.matched:
                out.append(caller)
            else:
                left_out += 1
        return out, left_out

    def callees_of(self, jm: Method) -> dict[str, str]:
        """Java name -> C# name of the matched methods jm calls (its own type's first, else a name that
        only one Java method bears)."""
        out = {}
        for name in self.calls(jm):
            if name == jm.name:
                continue
            own = [m for m in self.declared.get(name, ()) if m.type_id == jm.type_id]
            pool = own or self.declared.get(name, [])
            targets = {self.matched[m.id].name for m in pool if m.id in self.matched}
            if len(targets) == 1 and len(pool) == sum(1 for m in pool if m.id in self.matched):
                out[name] = next(iter(targets))
        return out


def misspelt(java: str, cs: str) -> str | None:
    """`medata ~ metadata` when the C# name is the Java name's words with one of them misspelt (both of 5
    letters or more): one letter changed, two swapped, or up to two dropped or added (MetadataManager's
    loadMetadataFromFile -> LoadMedataFromFile; `sheet` and `shift` are two words), else None."""
    a, b = words(java), words(cs)
    if len(a) != len(b) or len(a) < 3:
        return None
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    if len(differ) != 1 or min(map(len, differ[0])) < 5 or not _typo(*differ[0]):
        return None
    return f"{differ[0][1]} ~ {differ[0][0]}"


def _typo(a: str, b: str) -> bool:
    """One letter changed or two neighbours swapped (same length), or the shorter word is the longer one with
    up to two letters dropped."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                   and a[diff[1]] == b[diff[0]])
    short, long_ = sorted((a, b), key=len)
    if len(long_) - len(short) > 2:
        return False
    letters = iter(long_)
    return all(ch in letters for ch in short)


def _rewritten(body: str, callees: dict[str, str]) -> str:
    """The Java body with each matched callee's name written as its C# counterpart's."""
    if not callees:
        return body
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, callees)) + r")\b")
    return pattern.sub(lambda m: callees[m.group(1)], body)


def _signature_ok(jm: Method, cm: Method, sides: Sides) -> bool:
    """The parameters do not plainly disagree (C# may add up to MAX_ADDED_PARAMS, anywhere)."""
    scorer = Scorer(sides.types[jm.type_id], sides.types[cm.type_id], sides.project, sides.enums)
    cand = Cand(cm, tuple(cm.params), frozenset({cm.kind}))
    if len(cm.params) == len(jm.params):
        return scorer.agreement(jm, cand, numeric=True) > 0
    added = len(cm.params) - len(jm.params)
    return 0 < added <= MAX_ADDED_PARAMS and subsequence_agreement(jm, cand, scorer) > 0


def _needed(callees: dict[str, str], agree: int, callers: int) -> float:
    """The body similarity a candidate the callers agree on needs: less when its callees agree too."""
    if callees and agree >= CALLEE_SHARE * len(callees):
        return BODY_WITH_CALLEES
    return BODY_SEVERAL_CALLERS if callers >= 2 else BODY_ALONE


def _rewritten_body(jm: Method, cm: Method, sides: Sides, callees: dict[str, str], agree: int,
                    docs: DocComments | None) -> str | None:
    """Why a candidate whose body the port rewrote (too unlike to count) is still jm, or None: every
    matched callee is called (at least one), the parameter and return types agree exactly through the type
    map, and the doc comments agree (>= DOC_REWRITTEN). jBCrypt's checkpw compares bytes by hand where
    BCrypt.Net's Verify is `hash == HashPassword(text, hash)`."""
    if not callees or agree < len(callees) or docs is None:
        return None
    scorer = Scorer(sides.types[jm.type_id], sides.types[cm.type_id], sides.project, sides.enums)
    cand = Cand(cm, tuple(cm.params), frozenset({cm.kind}))
    if scorer.params(jm, cand) < 1.0 or scorer.returns(jm, cand) < 1.0:
        return None
    doc = docs.similarity(jm, cm)
    return f"body rewritten, doc comments {doc:.2f}, types exact" if doc is not None and doc >= DOC_REWRITTEN \
        else None


def match_by_neighbours(sides: Sides, matches: list[MethodMatch], unmatched: dict[str, str],
                        docs: DocComments | None = None) -> tuple[list[MethodMatch], dict[str, str]]:
    """Round 3 (see the module doc) over the Java methods in `unmatched` whose type is matched: the new
    matches, and the reasons that grow for the ones it considered and left."""
    cs_by_id = {m.id: m for ms in sides.cs.values() for m in ms}
    matched = {m.source_id: cs_by_id[m.target_id] for m in matches if m.target_id in cs_by_id}
    claimed = {m.target_id for m in matches}
    ported = set(sides.counterpart.values())     # a helper with no Java twin is the API map's (api_map.py)
    free = [m for ms in sides.cs.values() for m in ms
            if m.kind == "method" and m.id not in claimed and m.body and m.type_id in ported]
    free_names: dict[str, list[Method]] = defaultdict(list)
    for m in free:
        free_names[m.name].append(m)
    todo = []
    for ms in sides.java.values():
        arity = Counter((m.name, len(m.params)) for m in ms)
        todo += [m for m in ms if m.id in unmatched and m.kind == "method" and m.body
                 and m.type_id in sides.counterpart and arity[(m.name, len(m.params))] == 1]
    graph = _Graph(sides, matched)
    called = set().union(*(graph.calls(m) for ms in sides.java.values() for m in ms if m.id in matched))
    anywhere = set().union(*(graph.calls(m) for ms in sides.java.values() for m in ms))
    entries = [m for m in todo if m.name not in anywhere and "public" in m.modifiers]
    todo = [m for m in todo if m.name in called]       # a matched caller is the first thing it needs
    graph.find_callers({m.name for m in todo})
    wanted: dict[str, list[tuple[Method, Method, tuple[str, ...]]]] = defaultdict(list)
    reasons: dict[str, str] = {}
    for jm in sorted(todo, key=lambda m: m.id):
        jid = jm.id
        found_callers = graph.callers_of(jm)
        if not found_callers or not found_callers[0]:
            continue
        callers, left_out = found_callers
        said_callers = f"{len(callers)} matched caller(s) call it" + (f" ({left_out} unmatched left out)" if left_out else "")
        cs_callers = [matched[c.id] for c in callers]
        names = set.intersection(*(graph.calls(c) for c in cs_callers))
        callees = graph.callees_of(jm)
        java_body = _rewritten(jm.body, callees)
        fits = []
        for cm in (m for name in names for m in free_names.get(name, ())):
            if cm.name == jm.name or cm.name[:1].upper() + cm.name[1:] == jm.name[:1].upper() + jm.name[1:]:
                continue                     # the naming rules judged this one already
            agree = sum(1 for c in callees.values() if _names(c, cm.body))
            body = body_similarity(java_body, cm.body)
            if body is None:
                continue
            said = f"body under the mapping {body:.2f}"
            if body < _needed(callees, agree, len(callers)):
                rewritten = _rewritten_body(jm, cm, sides, callees, agree, docs)
                if rewritten is None:
                    continue
                said = f"{said}: {rewritten}"
            if not _signature_ok(jm, cm, sides):
                continue
            fits.append((cm, (said_callers,
                              f"{agree} of {len(callees)} matched callees called", said)))
        if not fits:                    # the port's typo: the Java name with one word misspelt, called there
            fits = [(cm, (said_callers, f"the name with one word misspelt ({typo})"))
                    for cm in (m for name in names for m in free_names.get(name, ()))
                    if len(cm.params) == len(jm.params) and (typo := misspelt(jm.name, cm.name))]
        if len(fits) == 1:
            wanted[fits[0][0].id].append((jm, fits[0][0], fits[0][1]))
        elif len(fits) > 1:
            reasons[jid] = (f"{unmatched[jid]}; matched neighbours fit {len(fits)} C# members: "
                            + ", ".join(sorted(c.id for c, _ in fits)[:3]))
    for jm in entries:                  # an entry point: no Java code calls it, so no caller can vouch for it
        callees = graph.callees_of(jm)
        fits = []
        for cm in free:
            if cm.type_id != sides.counterpart[jm.type_id]:
                continue
            agree = sum(1 for c in callees.values() if _names(c, cm.body))
            rewritten = _rewritten_body(jm, cm, sides, callees, agree, docs)
            if rewritten is not None:
                fits.append((cm, ("no Java code calls it (an entry point)", f"{agree} of {len(callees)} matched "
                                  "callees called", rewritten)))
        if len(fits) == 1:
            wanted[fits[0][0].id].append((jm, fits[0][0], fits[0][1]))
    found = []
    for target_id, group in wanted.items():
        if len(group) > 1:
            for jm, _, _ in group:
                reasons[jm.id] = f"{unmatched[jm.id]}; matched neighbours: several Java methods fit {target_id}"
            continue
        jm, cm, evidence = group[0]
        moved = "" if sides.counterpart.get(jm.type_id) == cm.type_id else f", moved to {simple_name(cm.type_id)}"
        found.append(MethodMatch(jm.id, cm.id, CONFIDENCE, "matched neighbours" + moved, evidence))
    return found, reasons


def match_orphans(sides: Sides, matches: list[MethodMatch], unmatched: dict[str, str]) -> list[MethodMatch]:
    """Static methods of Java types the port did not port, moved into a ported type: the one free static C#
    method of the same (PascalCase) name and arity in a type that is a Java type's counterpart, whose body says
    the same under the mapping (>= BODY_ALONE) and whose parameters do not plainly disagree (javaewah's
    IteratingBufferedRunningLengthWord.discharge -> EwahCompressedBitArray.Discharge); of several Java methods
    wanting one, the one whose parameters agree best, alone."""
    cs_by_id = {m.id: m for ms in sides.cs.values() for m in ms}
    matched = {m.source_id: cs_by_id[m.target_id] for m in matches if m.target_id in cs_by_id}
    claimed = {m.target_id for m in matches}
    ported = set(sides.counterpart.values())
    statics: dict[str, list[Method]] = defaultdict(list)
    for m in cs_by_id.values():
        if m.kind == "method" and "static" in m.modifiers and m.body and m.id not in claimed and m.type_id in ported:
            statics[m.name].append(m)
    graph = _Graph(sides, matched)
    wanted: dict[str, list[MethodMatch]] = defaultdict(list)
    for ms in sides.java.values():
        for jm in ms:
            if jm.id not in unmatched or jm.type_id in sides.counterpart or jm.kind != "method" \
                    or "static" not in jm.modifiers or not jm.body:
                continue
            pascal = jm.name[:1].upper() + jm.name[1:]
            cands = [c for c in statics.get(pascal, []) + (statics.get(jm.name, []) if pascal != jm.name else [])
                     if len(c.params) == len(jm.params)]
            if len(cands) != 1:
                continue
            body = body_similarity(_rewritten(jm.body, graph.callees_of(jm)), cands[0].body)
            if body is None or body < BODY_ALONE:
                continue
            c = cands[0]
            scorer = Scorer(sides.types[jm.type_id], sides.types[c.type_id], sides.project, sides.enums)
            if scorer.agreement(jm, Cand(c, tuple(c.params), frozenset({"method"}))) == 0:
                continue                     # a parameter plainly disagrees (HSSFSheet for HSSFWorkbook)
            fit = sum(1 for jp, cp in zip(jm.params, c.params) if scorer.param_agreement(jm, jp, c, cp) >= 1.0)
            wanted[c.id].append((fit, MethodMatch(
                jm.id, c.id, CONFIDENCE, f"moved to {simple_name(c.type_id)}, its class not ported",
                (f"the same name, static, {len(jm.params)} parameters", f"body under the mapping {body:.2f}",
                 f"{fit} of {len(jm.params)} parameter types the same through the type map"))))
    out = []
    for group in wanted.values():           # twins (a 32-bit copy of the class): the parameters decide
        top = max(fit for fit, _ in group)
        best = [m for fit, m in group if fit == top]
        if len(best) == 1 and top > 0:
            out.append(best[0])
    return out
