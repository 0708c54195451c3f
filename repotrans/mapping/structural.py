"""Round 2 of member matching: structural evidence inside an already matched type pair.

A Java method the naming rules left unmatched is compared with every C# member of the counterpart
type that no Java method claimed:
- signature: the parameter types (a getter's return type, a setter's value type) agree through the
  type map; a plain disagreement rules the candidate out; C# may add trailing parameters;
- body: Dice similarity of the normalised body tokens (evidence.py);
- name: Dice similarity of the name words (`getBarcodeRowCount` ~ `RowCount`);
- literals: shared string and number literals;
- calls: the call-graph neighbours already matched agree (what the Java method calls is named in the
  candidate's body; its Java callers' C# counterparts name the candidate);
- doc: Dice similarity of the doc comments' words (doc_comments.py).
The weighted mean of the evidence present is the confidence. A pair is kept when it reaches
THRESHOLD, beats the runner-up by MARGIN (a runner-up that is another Java method's top candidate and
best fit both is that method's, not a rival), and is also the C# member's best Java method; otherwise
the Java method stays unmatched with the reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.mapping.doc_comments import DocComments
from repotrans.mapping.evidence import body_similarity, dice, literals, name_words
from repotrans.mapping.matches import MethodMatch
from repotrans.index.model import Method, Param
from repotrans.mapping.signatures import Cand, Scorer, has_setter

THRESHOLD = 0.6
MARGIN = 0.2
MAX_ADDED_PARAMS = 2
NAME_WITHOUT_BODY = 0.6     # name similarity a match needs when there is no body to compare
DOC_WITHOUT_BODY = 0.9      # or doc comment similarity
WEIGHTS = {"body": 0.45, "name": 0.35, "signature": 0.2, "literals": 0.15, "calls": 0.3, "doc": 0.35}
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


class Neighbours:
    """Call-graph evidence inside one type pair: the Java methods a method calls and is called by,
    through the matches already made (Java name -> C# names)."""

    def __init__(self, java: list[Method], matched: dict[str, Method]):
        self.names: dict[str, set[str]] = {}                  # java method name -> C# member names
        by_id = {m.id: m for m in java}
        for jid, cm in matched.items():
            if jid in by_id:
                self.names.setdefault(by_id[jid].name, set()).add(cm.name)
        self.calls = {m.id: set(_CALL.findall(m.body or "")) for m in java}
        self.callers: dict[str, list[Method]] = {}
        for m in java:
            for name in self.calls[m.id]:
                self.callers.setdefault(name, []).append(m)
        self.matched = matched

    def agreement(self, jm: Method, cand: Method) -> tuple[float, int] | None:
        """Share of the matched neighbours (callees named in jm's body, callers of jm) whose C# side
        agrees: the callee's C# name is in the candidate's body, the caller's C# body names the candidate."""
        body = cand.body or ""
        hits = total = 0
        for name in self.calls.get(jm.id, ()):
            if name in self.names and name != jm.name:
                total += 1
                hits += any(re.search(rf"\b{re.escape(c)}\b", body) for c in self.names[name])
        for caller in self.callers.get(jm.name, ()):
            cs = self.matched.get(caller.id)
            if cs is not None and caller.id != jm.id:
                total += 1
                hits += bool(re.search(rf"\b{re.escape(cand.name)}\b", cs.body or ""))
        return (hits / total, total) if total else None


@dataclass(frozen=True)
class Scored:
    java: Method
    cand: Cand
    role: str                   # "reader" | "writer" | "member"
    score: float
    evidence: tuple[str, ...]


def role_of(jm: Method, target: Method) -> str:
    """What a Java method does to a C# property or indexer: read it or write it."""
    if target.kind == "property":
        return "writer" if jm.params else "reader"
    if target.kind == "indexer":
        return "writer" if len(jm.params) > len(target.params) or jm.return_type == "void" else "reader"
    return "member"


def _signature(jm: Method, cand: Cand, scorer: Scorer) -> tuple[float, str] | None:
    """Signature agreement (0 < s <= 1) and a note, or None when the candidate is ruled out."""
    c = cand.member
    if c.kind == "property":
        if not jm.params:
            if jm.return_type in (None, "void"):
                return None
            s = scorer.return_agreement(jm, c)
            return (s, "type agrees") if s > 0 else None
        if len(jm.params) != 1 or not has_setter(c):
            return None
        s = scorer.param_agreement(jm, jm.params[0], c, _as_param(c))
        return (s, "value type agrees") if s > 0 else None
    if c.kind == "indexer":
        writer = len(jm.params) == len(cand.params) + 1
        if not writer and len(jm.params) != len(cand.params):
            return None
        s = scorer.agreement(jm, cand, drop_last=writer, numeric=True)
        return (s, "index types agree") if s > 0 else None
    if _direction(jm.name) != _direction(c.name) and "" not in (_direction(jm.name), _direction(c.name)):
        return None                            # getX vs SetX: one reads, the other writes
    if jm.return_type not in (None, "void") and c.return_type == "void" and not any(
            "out" in p.modifiers or "ref" in p.modifiers for p in c.params):
        return None                            # a value the C# method never gives back
    if len(jm.params) == len(cand.params):
        s = scorer.agreement(jm, cand, numeric=True)
        return (s, "parameters agree") if s > 0 else None
    added = len(cand.params) - len(jm.params)
    if not 0 < added <= MAX_ADDED_PARAMS:
        return None
    s = subsequence_agreement(jm, cand, scorer)
    return (s * 0.5, f"C# adds {added} parameter(s)") if s > 0 else None


def _direction(name: str) -> str:
    """"read" for getX/isX/hasX, "write" for setX, "" otherwise (either case)."""
    for prefix, way in (("get", "read"), ("is", "read"), ("has", "read"), ("set", "write")):
        rest = name[len(prefix):]
        if name[:len(prefix)].lower() == prefix and rest[:1].isupper():
            return way
    return ""


def _as_param(prop: Method) -> Param:
    return Param("value", prop.return_type or "")


def subsequence_agreement(jm: Method, cand: Cand, scorer: Scorer) -> float:
    """Agreement of the Java parameters with an in-order subsequence of the C# ones (greedy)."""
    score, i = 1.0, 0
    cparams = cand.params
    for jp in jm.params:
        while i < len(cparams):
            s = scorer.param_agreement(jm, jp, cand.member, cparams[i])
            i += 1
            if s > 0:
                score = min(score, s)
                break
        else:
            return 0.0
    return score


def score(jm: Method, cand: Cand, scorer: Scorer, neighbours: Neighbours | None = None,
          docs: DocComments | None = None) -> Scored | None:
    """The candidate's confidence from the evidence present, or None when its signature rules it out."""
    if (jm.kind == "constructor") != (cand.member.kind == "constructor"):
        return None
    if jm.kind == "constructor" and jm.name != cand.member.name:     # <init> is never a static <clinit>
        return None
    sig = _signature(jm, cand, scorer)
    if sig is None:
        return None
    parts = {"signature": sig[0]}
    evidence = [f"{sig[1]} {sig[0]:.2f}"]
    if jm.kind != "constructor":
        parts["name"] = dice(name_words(jm.name), name_words(cand.member.name))
        evidence.append(f"name {parts['name']:.2f}")
    body = body_similarity(jm.body, cand.member.body)
    if body is not None:
        parts["body"] = body
        evidence.append(f"body {body:.2f}")
    calls = neighbours.agreement(jm, cand.member) if neighbours is not None else None
    if calls is not None and cand.member.kind != "constructor":
        parts["calls"] = calls[0]
        evidence.append(f"calls {calls[0]:.2f} of {calls[1]}")
    doc = docs.similarity(jm, cand.member) if docs is not None else None
    if doc is not None:
        parts["doc"] = doc
        evidence.append(f"doc {doc:.2f}")
    lj, lc = literals(jm.body), literals(cand.member.body)
    if len(lj) >= 2 and len(lc) >= 2:
        parts["literals"] = len(lj & lc) / len(lj | lc)
        evidence.append(f"literals {parts['literals']:.2f}")
    total = sum(WEIGHTS[k] * v for k, v in parts.items()) / sum(WEIGHTS[k] for k in parts)
    carried = parts.get("name", 0.0) >= NAME_WITHOUT_BODY or parts.get("doc", 0.0) >= DOC_WITHOUT_BODY
    if ("body" not in parts and not carried) or (sig[0] < 0.5 and parts.get("body", 0.0) < 0.5):
        total = min(total, THRESHOLD - 0.01)    # name or doc must carry a match without body, the body a loose signature
    return Scored(jm, cand, role_of(jm, cand.member), round(total, 3), tuple(evidence))


def _mutual_bests(rankings: dict[str, list[Scored]]) -> dict[str, str]:
    """C# member id -> the Java method it is the top candidate of, where that Java method is also its best
    scoring one: no other Java method's runner-up (javaewah's addStreamOfLiteralWords and
    addStreamOfNegatedLiteralWords, each the other's runner-up, are AddStreamOfDirtyWords and
    AddStreamOfNegatedDirtyWords)."""
    best_java: dict[str, tuple[float, str]] = {}
    for jid, ranked in rankings.items():
        for s in ranked:
            cid = s.cand.member.id
            if s.score > best_java.get(cid, (-1.0, ""))[0]:
                best_java[cid] = (s.score, jid)
    return {ranked[0].cand.member.id: jid for jid, ranked in rankings.items()
            if ranked and best_java[ranked[0].cand.member.id][1] == jid}


def match_rest(java: list[Method], free: list[Cand], scorer: Scorer, reasons: dict[str, str],
               neighbours: Neighbours | None = None, docs: DocComments | None = None
               ) -> tuple[list[MethodMatch], dict[str, str]]:
    """Structural matches for the Java methods in `java` among the free C# candidates.

    `reasons` holds why round 1 left each Java method unmatched; the returned reasons extend them.
    """
    best: dict[str, tuple[Scored, float]] = {}          # java id -> (best, runner-up score)
    out_reasons: dict[str, str] = {}
    rankings = {jm.id: sorted((s for c in free if (s := score(jm, c, scorer, neighbours, docs)) is not None),
                              key=lambda s: -s.score) for jm in java}
    owned = _mutual_bests(rankings)
    for jm in java:
        ranked = rankings[jm.id]
        if not ranked:
            continue
        top = ranked[0]
        runner = next((s.score for s in ranked[1:] if s.cand.member.id != top.cand.member.id
                       and owned.get(s.cand.member.id, jm.id) == jm.id), 0.0)
        if top.score < THRESHOLD:
            out_reasons[jm.id] = (f"{reasons[jm.id]}; best structural candidate {top.cand.member.id} "
                                  f"scored {top.score:.2f} < {THRESHOLD}")
        elif top.score - runner < MARGIN:
            out_reasons[jm.id] = (f"{reasons[jm.id]}; structural candidates too close: "
                                  f"{top.cand.member.id} {top.score:.2f}, runner-up {runner:.2f}")
        else:
            best[jm.id] = (top, runner)
    claims: dict[tuple[str, str], list[Scored]] = {}
    for top, _ in best.values():
        claims.setdefault((top.cand.member.id, top.role), []).append(top)
    matches = []
    for (target_id, _), group in claims.items():
        group.sort(key=lambda s: -s.score)
        if len(group) > 1 and group[0].score - group[1].score < MARGIN:
            for s in group:
                out_reasons[s.java.id] = f"{reasons[s.java.id]}; several Java methods fit {target_id}"
            continue
        win = group[0]
        for s in group[1:]:
            out_reasons[s.java.id] = f"{reasons[s.java.id]}; {target_id} fits {win.java.id} better"
        runner = best[win.java.id][1]
        via = f", {win.cand.via}" if win.cand.via else ""
        matches.append(MethodMatch(win.java.id, target_id, win.score, "structural evidence" + via,
                                   win.evidence + (f"runner-up {runner:.2f}",)))
    return matches, out_reasons
