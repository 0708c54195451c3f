"""Which C# member a Java method became, inside one matched type pair.

Round 1, names: naming rules propose C# names, an exact-name method first (camelCase -> PascalCase
or the same name), then the conventions (getX()/isX() -> property X, setX(v) -> its setter,
get(i) -> indexer, renames and prefixes from data/java_cs_names.json, x(..) -> GetX(..)), and the same
again ignoring case (isXYZ -> IsXyz), then the same words written out or abbreviated (words.py:
init_key -> InitializeKey, hashpw -> HashPassword). Overloads are told apart by parameter types mapped
through the type map (a C# method's added `out` parameters left out), then by return type; an only overload of
the arity is taken only when no parameter type plainly disagrees. When no same-named C# member has the
Java arity, one that adds parameters, or drops one the body shows the port made its own (`_dropped`), is
taken. Members that moved to a companion
class or to a C# base class without Java counterpart are looked up when the type itself has none.
Then signature drift (drift.py): a member named by the port's convention (a word added or written the .NET
way: FinalFireTimeUtc, GetInt32, ToInt32; extension methods of a companion class included) whose types
agree up to the drifts ports make (time as DateTime, int -> an enum, concrete -> abstract collections,
arrays -> IEnumerable, defaulted parameters). A getter of the field a property's paired setter writes is
that property's reader (field_readers.py). Round 2 (structural.py) weighs signature, body, name and
literal evidence for what is left.
A C# method takes one Java method; a property or indexer one reader and one writer. Across types,
a base or companion class member is no Java method's twin when several Java types claim it or the
Java method only extends its superclass's version (one_java_twin). A Java interface the port made a
delegate has one member: its one abstract method is the delegate's `Invoke`.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable, TypeVar

from repotrans.mapping.doc_comments import DocComments
from repotrans.mapping.drift import drifted_counterpart
from repotrans.mapping.evidence import body_similarity
from repotrans.mapping.field_readers import readers_of_same_fields, readers_of_written_fields
from repotrans.mapping.matches import MethodMatch, TypeMatch
from repotrans.mapping.member_hosts import companion_candidates, folded, own_candidates
from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.signatures import Cand, Scorer, has_setter
from repotrans.mapping.structural import MAX_ADDED_PARAMS, Neighbours, match_rest, role_of, subsequence_agreement
from repotrans.mapping.typenames import compat, name_table, parse_type
from repotrans.mapping.words import same_words

M = TypeVar("M", TypeMatch, MethodMatch)
CASE_FACTOR = 0.95          # a rule's confidence when only the case differs
CASE_NOTE = ", case differs"
MAX_DROPPED_PARAMS = 1      # Java parameters a port may drop from a same-named method
DROPPED_BODY = 0.5          # body similarity that carries a dropped parameter (else a local of its name)
WORDS = "the same words (snake_case, abbreviations)"


def unique_best(props: list[M]) -> M | None:
    """The proposal with the highest confidence, or None on a tie."""
    top = max(p.confidence for p in props)
    best = [p for p in props if p.confidence == top]
    return best[0] if len(best) == 1 else None


LISTS = frozenset({"List", "Collection", "Iterable", "ArrayList"})   # what a plural accessor xs() may return


@dataclass(frozen=True)
class _Rule:
    names: tuple[str, ...]      # C# member names to look for
    kinds: tuple[str, ...]      # C# member kinds accepted
    compare_params: bool        # False: accessor -> property, no parameter list to compare
    confidence: float
    reason: str
    drop_last: bool = False     # Java setter whose last parameter is the value (set(i, v) -> this[i])


def _rules(m: Method) -> list[_Rule]:
    """The C# members a Java method may have become, by naming rule, best first."""
    if m.kind == "constructor":
        return [_Rule(("<init>",), ("constructor",), True, 1.0, "constructor")]
    table = name_table()
    n = len(m.params)
    pascal = m.name[:1].upper() + m.name[1:]
    rules = [_Rule((pascal,), ("method",), True, 1.0, "PascalCase name")]
    if pascal != m.name:
        rules.append(_Rule((m.name,), ("method",), True, 0.9, "same name"))
    if m.name in table.methods:
        rules.append(_Rule(table.methods[m.name], ("method", "property"), True, 0.95, "renamed member"))
    for prefix in table.getter_prefixes:
        prop = _accessor_name(m.name, prefix)
        if prop and n == 0:
            names = (prop,) if prefix == "get" else (prop, pascal)     # isEmpty() -> Empty | IsEmpty
            rules.append(_Rule(names, ("property",), False, 0.95, "getter -> property"))
    for prefix in table.setter_prefixes:
        prop = _accessor_name(m.name, prefix)
        if prop and n == 1:
            names = (prop,) + tuple(p + prop for p in table.getter_prefixes if p != "get")   # setX -> IsX
            rules.append(_Rule(names, ("property",), False, 0.95, "setter -> property"))
    if m.name in table.indexer_getters and n >= 1:
        rules.append(_Rule(("this",), ("indexer",), True, 0.9, "getter -> indexer"))
    if m.name in table.indexer_setters and n >= 2:
        rules.append(_Rule(("this",), ("indexer",), True, 0.9, "setter -> indexer", drop_last=True))
    if m.name in table.indexer_setters and n >= 1 and m.return_type == "void":
        rules.append(_Rule(("this",), ("indexer",), True, 0.8, "set(i) -> indexer setter"))
    for prefix, replacements in table.method_prefixes.items():
        rest = _accessor_name(m.name, prefix)
        if rest:
            rules.append(_Rule(tuple(r + rest for r in replacements), ("method",), True, 0.85,
                               f"{prefix}X -> {'/'.join(replacements)}X"))
    if n == 0:
        rules.append(_Rule((pascal,), ("property",), False, 0.9, "method -> property"))
    if n == 0 and parse_type(m.return_type or "").base in LISTS and re.search(r"[^s]s$", m.name):
        rules.append(_Rule((pascal[:-1] + "List",), ("property", "method"), False, 0.85, "xs() -> XList"))
    if n == 0 and m.return_type in ("int", "long"):
        for ending, replacements in table.accessor_suffixes.items():
            if pascal.endswith(ending) and len(pascal) > len(ending):
                rules.append(_Rule(tuple(pascal[:-len(ending)] + r for r in replacements), ("property", "method"),
                                   False, 0.85, f"x{ending}() -> X{'/'.join(replacements)}"))
    rules.append(_Rule(("Get" + pascal,), ("method",), True, 0.85, "method -> Get method"))
    return rules


def _word_rules(m: Method, by_name: dict[str, list[Cand]]) -> list[_Rule]:
    """Tried after the naming rules (and their case-blind pass): the C# methods whose name is the Java
    name's words, written out or abbreviated (words.py: decode_base64 -> DecodeBase64, gensalt -> GenerateSalt)."""
    if m.kind != "method":
        return []
    names = tuple(sorted(n for n in by_name if n.lower() != m.name.lower() and same_words(m.name, n)))
    return [_Rule(names, ("method",), True, 0.85, WORDS)] if names else []


def _renamed_type_rules(m: Method, project: dict[str, set[str]]) -> list[_Rule]:
    """A Java name holding the name of a type the port renamed holds its counterpart's name in C#
    (javaewah's testEWAHCompressedBitmap -> TestEwahCompressedBitArray, as EWAHCompressedBitmap ->
    EwahCompressedBitArray): the name with each such type name replaced, PascalCase."""
    if m.kind != "method":
        return []
    names = []
    n = len(m.name)         # the type names in it: its substrings looked up, not every type's name searched
    inside = sorted({m.name[i:j] for i in range(n) for j in range(i + 4, n + 1)} & project.keys(),
                    key=lambda java: (m.name.index(java), -len(java)))
    for java in inside:
        cs = project[java]
        if len(cs) != 1 or java in cs:
            continue
        found = re.search(rf"(?:^|(?<=[a-z0-9_])){re.escape(java)}(?![a-z])", m.name)
        if found:
            renamed = m.name.replace(java, next(iter(cs)))
            names.append(renamed[:1].upper() + renamed[1:])
    return [_Rule(tuple(names), ("method",), True, 0.85, "a renamed type's name in it")] if names else []


def _accessor_name(name: str, prefix: str) -> str | None:
    """`getRowCount` -> RowCount for prefix `get`; snake_case too: `set_value` -> Value, `get_row_count` ->
    RowCount, `set_symbolicWeight` -> SymbolicWeight (cassowary's setters)."""
    rest = name[len(prefix):]
    if name.startswith(prefix) and rest[:1].isupper():
        return rest
    if name.startswith(prefix + "_") and rest[1:2].isalpha():
        return "".join(w[:1].upper() + w[1:] for w in rest[1:].split("_") if w)
    return None


def _propose(jm: Method, by_name: dict[str, list[Cand]], scorer: Scorer, arity_count: Counter,
             fold: dict[str, list[Cand]] | None = None, leftover: dict | None = None) -> MethodMatch | str:
    """The one C# member for a Java method, or why there is none (names exactly, then ignoring case).

    Candidates of the arity whose parameter types do not plainly disagree go to `leftover` when they
    cannot decide yet (overloads of the same arity): once the others are placed, one may be left."""
    loose: dict[str, tuple[Cand, _Rule]] = {}
    rules = _rules(jm)
    passes = [(by_name, lambda: rules, "")]
    if fold is not None:
        passes.append((fold, lambda: rules, CASE_NOTE))
    passes.append((by_name, lambda: _word_rules(jm, by_name), ""))     # read every C# name: only when reached
    passes.append((by_name, lambda: _renamed_type_rules(jm, scorer.project), ""))
    for lookup, pass_rules, note in passes:
        for rule in pass_rules():
            keys = rule.names if not note else tuple(n.lower() for n in rule.names)
            named = [c for key in keys for c in lookup.get(key, []) if c.kinds & set(rule.kinds)
                     and (not note or c.member.name not in rule.names)]
            if not rule.compare_params:        # accessor -> property: no parameter list to compare
                named = [c for c in named if c.member.kind == "property" or not c.params]
                if jm.params:                  # a setter writes: never a get-only property
                    named = [c for c in named if c.member.kind != "property" or has_setter(c.member)]
                if len({c.member.id for c in named}) == 1:
                    return _match(jm, named[0], rule, 1.0, note)
                continue
            scored = [(c, scorer.params(jm, c, rule.drop_last)) for c in named]
            good = [(c, s) for c, s in scored if s > 0]
            if good:
                top = max(s for _, s in good)
                best = [c for c, s in good if s == top]
                if len(best) > 1:              # overloads equal on parameters: the return type decides
                    ret = [(c, scorer.returns(jm, c)) for c in best]
                    top_ret = max(r for _, r in ret)
                    best = [c for c, r in ret if r == top_ret]
                if len(best) > 1 and any(not c.note for c in best):
                    best = [c for c in best if not c.note]      # an exact overload beats an out-parameter view
                if len({c.member.id for c in best}) > 1:
                    return "ambiguous: " + ", ".join(sorted({c.member.id for c in best}))
                return _match(jm, best[0], rule, top, note)
            for c in named:
                if scorer.agreement(jm, c, rule.drop_last) > 0:
                    loose.setdefault(c.member.id, (c, rule))
        if loose:
            break
    if len(loose) == 1 and arity_count[(jm.name, len(jm.params))] == 1:
        c, rule = next(iter(loose.values()))
        return _match(jm, c, rule, 0.0, "")
    if loose:
        if leftover is not None:
            leftover[jm.id] = list(loose.values())
        return "ambiguous: " + ", ".join(sorted(loose))
    return _added_params(jm, by_name, scorer, rules[:2] + _word_rules(jm, by_name), arity_count) \
        or "no C# member by the naming rules"


def _added_params(jm: Method, by_name: dict[str, list[Cand]], scorer: Scorer, rules: list[_Rule],
                  arity_count: Counter) -> MethodMatch | None:
    """The one same-named C# method (or constructor) whose parameters hold the Java ones in order plus
    up to MAX_ADDED_PARAMS more (`decode(a)` -> `decode(a, hints)`, an enum's constructor gaining
    `ordinal, name`), or the Java ones less up to MAX_DROPPED_PARAMS (`crypt_raw(pw, salt, rounds, cdata)`
    -> `CryptRaw(pw, salt, rounds)`, see _dropped), when no same-named C# member has the Java arity. A C#
    method with the arity of another Java overload of the name is that overload's, never a dropped view."""
    for rule in rules:
        if rule.reason not in ("constructor", "PascalCase name", "same name", WORDS):
            continue
        named = [c for name in rule.names for c in by_name.get(name, []) if c.kinds & set(rule.kinds)]
        if any(len(c.params) == len(jm.params) for c in named if not c.note):
            continue                           # C# has this arity: the Java method is not among them
        fits: dict[str, tuple[Cand, str]] = {}  # member id -> its view with the fewest parameters, why
        for c in sorted(named, key=lambda c: len(c.params)):
            if 0 < len(c.params) - len(jm.params) <= MAX_ADDED_PARAMS and subsequence_agreement(jm, c, scorer) > 0:
                fits.setdefault(c.member.id, (c, f"C# adds {len(c.params) - len(jm.params)} parameter(s)"))
            elif arity_count[(jm.name, len(c.params))] == 0 and (why := _dropped(jm, c, scorer)) is not None:
                fits.setdefault(c.member.id, (c, why))
        if len(fits) == 1:
            c, why = next(iter(fits.values()))
            note = f", {c.note}" if c.note else ""
            return MethodMatch(jm.id, c.member.id, round(rule.confidence * 0.7, 3), f"{rule.reason}, {why}{note}")
    return None


def _dropped(jm: Method, c: Cand, scorer: Scorer) -> str | None:
    """Why C# method `c` is `jm` with up to MAX_DROPPED_PARAMS of its parameters dropped, or None: the
    rest agree in order through the type map, and the body says the same (Dice >= DROPPED_BODY), or each
    dropped parameter is declared in the C# body under its Java name (BCrypt.Net's `CryptRaw` makes its own
    `cdata`, which jBCrypt's callers passed in). The name alone never carries it."""
    dropped = len(jm.params) - len(c.params)
    if not 0 < dropped <= MAX_DROPPED_PARAMS or c.member.kind not in ("method", "constructor"):
        return None
    kept, i = [], 0
    for cp in c.params:                        # each C# parameter takes the next Java one that agrees
        while i < len(jm.params) and scorer.param_agreement(jm, jm.params[i], c.member, cp) <= 0:
            i += 1
        if i == len(jm.params):
            return None
        kept.append(i)
        i += 1
    lost = [p.name for k, p in enumerate(jm.params) if k not in kept]
    body = body_similarity(jm.body, c.member.body)
    local = all(re.search(rf"\b[\w<>\[\],.]+\s+{re.escape(n)}\s*=", c.member.body or "") for n in lost)
    if not local and (body is None or body < DROPPED_BODY):
        return None
    said = f"body {body:.2f}" if body is not None and body >= DROPPED_BODY else "a local of its name in the C# body"
    return f"C# drops parameter(s) {', '.join(lost)} ({said})"


def _match(jm: Method, c: Cand, rule: _Rule, param_score: float, note: str) -> MethodMatch:
    """MethodMatch with confidence = rule x parameter fit (1 exact, 0.5 raw/generic, 0 only overload)."""
    factor, fit = {1.0: (1.0, ""), 0.5: (0.8, ", raw/generic parameter types")}.get(
        param_score, (0.6, ", only overload of this arity (parameter types not all known)"))
    conf = rule.confidence * factor * (0.9 if c.via else 1.0) * (CASE_FACTOR if note else 1.0) \
        * (0.9 if c.note else 1.0)
    reason = rule.reason + note + fit + (f", {c.note}" if c.note else "") + (f", {c.via}" if c.via else "")
    return MethodMatch(jm.id, c.member.id, round(conf, 3), reason)


def match_methods(java: list[Method], cs: list[Method], companions: list[tuple[TypeDecl, list[Method]]],
                  bases: list[tuple[TypeDecl, list[Method]]], jt: TypeDecl, ct: TypeDecl,
                  project: dict[str, set[str]], enums: frozenset[str], docs: DocComments | None = None,
                  overridden: Callable[[Method], bool] | None = None,
                  builder: tuple[TypeDecl, list[Method]] | None = None) -> tuple[list[MethodMatch], dict[str, str]]:
    """Match the Java type `jt`'s methods to members of its C# counterpart `ct` (then its companions,
    unmatched base classes and, for a mutator, the builder of an immutable `ct`), by names (round 1)
    and then by structure (round 2)."""
    if ct.kind == "delegate":
        return _delegate_invoke(java, cs)
    scorer = Scorer(jt, ct, project, enums)
    own = own_candidates(cs)
    inherited: dict[str, list[Cand]] = defaultdict(list)
    for host, members in bases:
        for name, cands in own_candidates(members, f"inherited from {host.name}").items():
            inherited[name] += cands
    moved = {static: companion_candidates(companions, ct, static) for static in (False, True)}
    built = own_candidates([m for m in builder[1] if m.kind == "method"], f"moved to its builder {builder[0].name}") \
        if builder else {}
    arity_count = Counter((m.name, len(m.params)) for m in java)
    proposals: list[MethodMatch] = []
    unmatched: dict[str, str] = {}
    leftover: dict[str, list[tuple[Cand, _Rule]]] = {}
    for jm in java:
        found = _propose(jm, own, scorer, arity_count, folded(own), leftover)
        if isinstance(found, str) and jm.kind == "method":
            elsewhere = _propose(jm, moved["static" in jm.modifiers], scorer, arity_count)
            found = found if isinstance(elsewhere, str) else elsewhere
        if isinstance(found, str) and inherited:
            elsewhere = _propose(jm, inherited, scorer, arity_count, folded(inherited))
            found = found if isinstance(elsewhere, str) else elsewhere
        if isinstance(found, str) and built and _mutator(jm, jt):
            elsewhere = _propose(jm, built, scorer, arity_count)
            found = found if isinstance(elsewhere, str) else elsewhere
        if isinstance(found, str):
            unmatched[jm.id] = found
        else:
            proposals.append(found)
    hosts = bases + companions + ([builder] if builder else [])
    by_id = {m.id: m for m in java + cs + [m for _, ms in hosts for m in ms]}
    proposals += _serialization(java, cs, jt, ct, unmatched)
    matches = _resolve(proposals, by_id, unmatched)
    matches += _only_unclaimed(leftover, matches, unmatched)
    claimed = {(m.target_id, role_of(by_id[m.source_id], by_id[m.target_id])) for m in matches}
    extensions = [m for _, ms in companions for m in ms if m.params and "this" in m.params[0].modifiers]
    drifted = _drifted([jm for jm in java if jm.id in unmatched], cs + extensions, claimed, unmatched,
                       dict(project=project, enums=enums, java_type=jt, cs_type=ct))
    matches += drifted
    claimed |= {(m.target_id, role_of(by_id[m.source_id], by_id[m.target_id])) for m in drifted}
    matches += readers_of_written_fields(java, matches, by_id, claimed, unmatched, scorer, overridden)
    free = [c for cands in own.values() for c in cands     # a base class's members need a naming rule
            if not c.note and not any((c.member.id, r) in claimed for r in _roles(c.member))]
    rest = [jm for jm in java if jm.id in unmatched]
    neighbours = Neighbours(java, {m.source_id: by_id[m.target_id] for m in matches})
    found, reasons = match_rest(rest, free, scorer, unmatched, neighbours, docs)
    for m in found:
        del unmatched[m.source_id]
    unmatched.update(reasons)
    claimed |= {(m.target_id, role_of(by_id[m.source_id], by_id[m.target_id])) for m in found}
    found += readers_of_same_fields(java, cs, claimed, unmatched, scorer, overridden)    # after round 2: its pairs stand
    return matches + found, unmatched


SERIALIZATION = {"writeExternal": "ObjectOutput", "readExternal": "ObjectInput",       # Externalizable
                 "writeObject": "ObjectOutputStream", "readObject": "ObjectInputStream"}  # Serializable's hooks
ISERIALIZABLE = ("SerializationInfo", "StreamingContext")


def _serialization(java: list[Method], cs: list[Method], jt: TypeDecl, ct: TypeDecl,
                   unmatched: dict[str, str]) -> list[MethodMatch]:
    """Java serialization's hooks where the port implements ISerializable: the writer (writeExternal(ObjectOutput),
    writeObject(ObjectOutputStream)) is GetObjectData(SerializationInfo, StreamingContext), the reader the
    constructor taking those two (javaewah's EWAHCompressedBitmap -> csharpewah's EwahCompressedBitArray)."""
    if not any(parse_type(b).base == "ISerializable" for b in ct.bases):
        return []
    out = []
    for jm in java:
        wanted = SERIALIZATION.get(jm.name)
        if jm.id not in unmatched or wanted is None or [parse_type(p.type).base for p in jm.params] != [wanted]:
            continue
        kind, name = ("method", "GetObjectData") if jm.name.startswith("write") else ("constructor", "<init>")
        fits = [c for c in cs if c.kind == kind and c.name == name
                and tuple(parse_type(p.type).base for p in c.params) == ISERIALIZABLE]
        if len(fits) == 1:
            del unmatched[jm.id]
            out.append(MethodMatch(jm.id, fits[0].id, 0.85, f"Java serialization's {jm.name} -> ISerializable's "
                                   + ("GetObjectData" if kind == "method" else "deserializing constructor"),
                                   (f"{ct.name} implements ISerializable", f"{jm.name}({wanted})",
                                    f"the one {name}(SerializationInfo, StreamingContext)")))
    return out


def _mutator(jm: Method, jt: TypeDecl) -> bool:
    """Whether a Java method has a mutator's shape: an instance method returning nothing or its own
    type (a fluent `setX`, `clear()`, `mergeFrom(other)`)."""
    return jm.kind == "method" and "static" not in jm.modifiers \
        and (jm.return_type == "void" or parse_type(jm.return_type or "").base == jt.name)


def _delegate_invoke(java: list[Method], cs: list[Method]) -> tuple[list[MethodMatch], dict[str, str]]:
    """A Java interface the port made a delegate: its one abstract method is the delegate's `Invoke`
    (`evaluate(c, r)` -> `DifferenceEvaluator(Comparison, ComparisonResult)`); any other method (a default
    or static one) has no place in a delegate."""
    invoke = next((m for m in cs if m.name == "Invoke"), None)
    abstract = [m for m in java if m.kind == "method" and m.body is None and "static" not in m.modifiers]
    matches = [MethodMatch(abstract[0].id, invoke.id, 0.9, "the interface's one method -> the delegate's Invoke")] \
        if invoke is not None and len(abstract) == 1 else []
    paired = {m.source_id for m in matches}
    return matches, {m.id: "the port made the interface a delegate: it has no other member" for m in java
                     if m.id not in paired}


def _drifted(java: list[Method], cs: list[Method], claimed: set[tuple[str, str]], unmatched: dict[str, str],
             context: dict) -> list[MethodMatch]:
    """Java methods the naming rules left unmatched whose C# counterpart kept the name but re-typed the
    signature (drift.py): paired with the drifts as evidence. A C# member whose defaulted parameters
    cover a shorter Java overload stands for it too, though the full overload holds it."""
    out = []
    for jm in java:
        taken = {c.id for c in cs if (c.id, role_of(jm, c)) in claimed}
        found = drifted_counterpart(jm, cs, exclude=taken, **context)
        if found is None:
            shared = drifted_counterpart(jm, cs, **context)
            found = shared if shared is not None and shared.only_defaults else None
        if found is None or not found.drifts:
            continue                    # nothing drifted: round 1 left it for a reason (ambiguity)
        if found.target is None:
            unmatched[jm.id] = found.reason
            continue
        del unmatched[jm.id]
        claimed.add((found.target.id, role_of(jm, found.target)))
        out.append(MethodMatch(jm.id, found.target.id, round(0.8 * 0.9 ** found.name_rank, 3), found.reason,
                               found.drifts))
    return out


def one_java_twin(matches: list[MethodMatch], unmatched: dict[str, str], methods: dict[str, Method],
                  counterpart: dict[str, str]) -> list[MethodMatch]:
    """Matches to a member of a base or companion class (not of the Java type's own C# counterpart) that
    are no one Java method's translation, dropped and said why:
    - the member is claimed by methods of several Java types: a helper the port shares (NPOI's
      reflective `BaseObject.Clone()`, standing in for `Object.clone` under five HWPF types);
    - the Java method calls its superclass's own version (`return super.clone();`): the base class's
      member is that version's counterpart, not this override's.
    `methods`: every method by id (both sides); `counterpart`: Java type id -> its C# type id."""
    claims: dict[str, set[str]] = defaultdict(set)
    for m in matches:
        claims[m.target_id].add(methods[m.source_id].type_id)
    out = []
    for m in matches:
        jm, types = methods[m.source_id], claims[m.target_id]
        if methods[m.target_id].type_id == counterpart.get(jm.type_id):
            out.append(m)
        elif len(types) > 1:
            unmatched[m.source_id] = (f"{m.target_id} is shared by methods of {len(types)} Java types: "
                                      "a C# helper with no single Java twin")
        elif f"super.{jm.name}(" in "".join((jm.body or "").split()):
            unmatched[m.source_id] = f"calls super.{jm.name}(): {m.target_id} is the superclass version's counterpart"
        else:
            out.append(m)
    return out


def _only_unclaimed(leftover: dict[str, list[tuple[Cand, _Rule]]], matches: list[MethodMatch],
                    unmatched: dict[str, str]) -> list[MethodMatch]:
    """Java overloads of one arity that stayed ambiguous: one whose candidates are all claimed but one,
    which no other such overload still wants, takes it."""
    taken = {m.target_id for m in matches}
    left = {jid: [(c, r) for c, r in cands if c.member.id not in taken]
            for jid, cands in leftover.items() if jid in unmatched}
    wanted = Counter(c.member.id for cands in left.values() for c, _ in cands)
    out = []
    for jid, cands in left.items():
        if len(cands) == 1 and wanted[cands[0][0].member.id] == 1:
            c, rule = cands[0]
            out.append(MethodMatch(jid, c.member.id, round(rule.confidence * 0.6, 3),
                                   rule.reason + ", only unclaimed overload of this arity"))
            del unmatched[jid]
    return out


def _full_arity(props: list[MethodMatch], by_id: dict[str, Method]) -> list[MethodMatch]:
    """Of Java overloads claiming one C# method, those with its whole parameter list, when the others
    are shorter: a port that folds `f(a)`, `f(a, b)`, `f(a, b, c)` into `F(a, b = 5, c = 1.0)` kept the
    longest overload's body there; the shorter ones only call it (empty when no such split)."""
    target = by_id[props[0].target_id]
    if target.kind not in ("method", "constructor") or len(props) < 2:
        return []
    arity = len([p for p in target.params if "this" not in p.modifiers])
    full = [p for p in props if len(by_id[p.source_id].params) == arity]
    shorter = all(len(by_id[p.source_id].params) < arity for p in props if p not in full)
    return full if full and shorter and len(full) < len(props) else []


def _typed_alike(props: list[MethodMatch], by_id: dict[str, Method]) -> list[MethodMatch]:
    """Of Java getters claiming one C# property, the one whose result is its type, when only one is:
    metadata-extractor's `getErrors()` and `hasErrors()` both name `Errors`, a list (empty when none is)."""
    target = by_id[props[0].target_id]
    if target.kind != "property" or not target.return_type or len(props) < 2:
        return []
    cs = parse_type(target.return_type)
    alike = [p for p in props if (r := by_id[p.source_id].return_type) and r != "void"
             and compat(parse_type(r), cs, {}, frozenset(), frozenset()) > 0]
    return alike if len(alike) == 1 else []


def _case_kept(props: list[MethodMatch]) -> list[MethodMatch]:
    """Of Java methods claiming one C# member, those a naming rule found with the case as written, when the
    others only ignoring case (javaewah's testsetSizeInBits and testSetSizeInBits: the port kept the first's
    `testsetSizeInBits`; empty otherwise)."""
    kept = [p for p in props if CASE_NOTE not in p.reason]
    return kept if 0 < len(kept) < len(props) else []


def _bean_getter(props: list[MethodMatch], by_id: dict[str, Method]) -> list[MethodMatch]:
    """Of Java getters claiming one C# bool property, the `isX` one when only one is: JavaBeans names a
    boolean's getter so, and a `getX` beside it reads the same (libphonenumber's isMainCountryForCode and
    getMainCountryForCode both name MainCountryForCode; empty otherwise)."""
    target = by_id[props[0].target_id]
    if target.kind != "property" or target.return_type != "bool" or len(props) < 2:
        return []
    named = [p for p in props if re.match(r"is[A-Z]", by_id[p.source_id].name)
             and by_id[p.source_id].return_type == "boolean"]
    return named if len(named) == 1 else []


def _roles(member: Method) -> tuple[str, ...]:
    """The roles a claim must hold for the member to be taken: both for a property or indexer."""
    return ("reader", "writer") if member.kind in ("property", "indexer") else ("member",)


def _resolve(proposals: list[MethodMatch], by_id: dict[str, Method], unmatched: dict[str, str]
             ) -> list[MethodMatch]:
    """One Java method per C# member and role (a property's reader and writer are two roles)."""
    groups: dict[tuple[str, str], list[MethodMatch]] = defaultdict(list)
    for p in proposals:
        groups[(p.target_id, role_of(by_id[p.source_id], by_id[p.target_id]))].append(p)
    matches = []
    for (target_id, _), props in groups.items():
        best = unique_best(_full_arity(props, by_id) or _typed_alike(props, by_id) or _bean_getter(props, by_id)
                           or _case_kept(props) or props)
        for p in props:
            if best is None:
                unmatched[p.source_id] = f"several Java methods claim {target_id}"
            elif p is not best:
                unmatched[p.source_id] = f"{target_id} taken by {best.source_id}"
        if best is not None:
            matches.append(best)
    return matches
