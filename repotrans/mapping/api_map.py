"""The learned API map of a port: how this port writes each Java call, construction and constant.

From every aligned method pair (the mapping's), the Java body's API sites are aligned with the C#
body's (api_sites.py) as statistical MT aligns words: in order (a monotone alignment), by name
likeness and by where the Java receiver and arguments reappear in the C# site. Each aligned pair
becomes a template over the Java parts (`{0}` the receiver, `{1}`.. the arguments, as jdk_map.toml
writes them): `new IndexOutOfBoundsException(x)` -> `ThrowHelper.IndexOutOfRange({1})`. The map keeps
every observation with the pair it came from, so a task's own pair can be left out (`without`) and the
map used for a task never holds its ground truth.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from repotrans.index.model import Method
from repotrans.mapping.api_sites import Part, Site, cs_sites, java_sites

THRESHOLD = 0.55          # alignment score a site pair needs
MIN_SHARE = 0.6           # share of a key's observations the template used must have
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_PLACEHOLDER = re.compile(r"\{\w+\}")
_TYPE_ARGS = re.compile(r"\w<([^<>()]*)>")
_IDENT = re.compile(r"(?<![\w.\"'])[A-Za-z_]\w*")
_EXCEPTION = re.compile(r"(Exception|Error)$")
_CREATED = re.compile(r"^new ([\w.]+)\(")
TYPE_KEY = "type {}"       # a JDK type as the port declares it (wrapped_types.py)
_COMPATIBLE = {"new": ("new", "call"), "static": ("call", "member", "new", "index"),
               "call": ("call", "member", "index", "new"), "field": ("member",)}


@dataclass(frozen=True)
class Observation:
    """One aligned site pair: the Java key, the C# template, the Java literal arguments the template
    depends on (index, text), and the pair it was seen in."""
    key: str
    template: str
    general: bool             # every Java part is placed (or a literal condition) and no local leaks in
    conditions: tuple[tuple[int, str], ...]
    source_id: str
    target_id: str
    java: str
    cs: str
    arg_type: str = ""        # the first Java argument's simple type where known


@dataclass(frozen=True)
class Choice:
    """The template the map answers for a key, with its support."""
    template: str
    count: int
    total: int
    example: tuple[str, str]


class ApiMap:
    """Observations by key, and the keys whose callee the mapping pairs with a C# member (`mapped`:
    the resolver translates those calls; the map is for the JDK and for helpers the port removed)."""

    def __init__(self, observations: list[Observation], mapped: frozenset[str] = frozenset()):
        self.observations = observations
        self.mapped = mapped
        self._by_key: dict[str, list[Observation]] = defaultdict(list)
        for o in observations:
            self._by_key[o.key].append(o)

    def without(self, *member_ids: str) -> ApiMap:
        """The map with every observation of these Java or C# members left out (a task's own pair)."""
        drop = set(member_ids)
        return ApiMap([o for o in self.observations if o.source_id not in drop and o.target_id not in drop],
                      self.mapped)

    def keys(self) -> list[str]:
        return sorted(self._by_key)

    def choose(self, key: str, java_args: list[str] | None = None, min_count: int = 1,
               arg_type: str | None = None) -> Choice | None:
        """The port's template for `key` (given the Java argument texts, for literal conditions, and the
        first argument's simple type where known): the most frequent general one, when it has
        `min_count` observations and MIN_SHARE of the key's."""
        seen = self._by_key.get(key)
        if not seen:
            return None
        args = java_args or []
        fits = [o for o in seen if passes_through(o.template, len(args))
                or all(i < len(args) and args[i] == text for i, text in o.conditions)]
        if arg_type:      # seen with another argument type: only observations of this one are evidence
            # (arrays keep their dimensions: `String.valueOf(c)` of a char is no evidence for a char[])
            other = any(o.arg_type and o.arg_type != arg_type for o in fits)
            fits = [o for o in fits if o.arg_type == arg_type or (not o.arg_type and not other)]
        counts = Counter(o.template for o in fits)
        if not counts:
            return None
        template, count = counts.most_common(1)[0]
        first = next(o for o in fits if o.template == template)
        if not first.general or count < min_count or count < MIN_SHARE * len(fits):
            return None
        return Choice(template, count, len(fits), (first.java, first.cs))

    def created_type(self, java_type: str, min_count: int = 2) -> str | None:
        """The type the port creates for a Java `new java_type(..)` whatever its arguments (the
        exception a port throws for Java's, seen over every arity), when `min_count` observations and
        MIN_SHARE of them agree."""
        counts = Counter(m.group(1) for key, seen in self._by_key.items()
                         if key.startswith(f"new {java_type}/") for o in seen
                         for m in [_CREATED.match(o.template)] if m)
        if not counts:
            return None
        created, count = counts.most_common(1)[0]
        return created if count >= min_count and count >= MIN_SHARE * sum(counts.values()) else None

    def wrapper(self, java_type: str, min_count: int = 2) -> str | None:
        """The port's own type deriving from a JDK type's .NET counterpart (wrapped_types.py) that most
        declarations of the JDK type with a port type use, when `min_count` of them do. A value of it goes
        wherever the counterpart does, so what a candidate creates can be it wherever the port uses it."""
        seen = Counter(o.template for o in self._by_key.get(TYPE_KEY.format(java_type), []))
        if not seen:
            return None
        best, count = max(sorted(seen.items()), key=lambda kv: kv[1])
        return best if count >= min_count else None

    def correspondences(self) -> list[tuple[str, str, int, list[Observation]]]:
        """(key, template, count, observations) of the general templates, most frequent first; a key seen
        only with literal arguments reads `key [arg 2 = 0]`."""
        groups: dict[tuple[str, str], list[Observation]] = defaultdict(list)
        for o in self.observations:
            if o.general:
                when = ", ".join(f"arg {i + 1} = {text}" for i, text in o.conditions)
                groups[(f"{o.key} [{when}]" if when else o.key, o.template)].append(o)
        return sorted(((k, t, len(os), os) for (k, t), os in groups.items()), key=lambda r: (-r[2], r[0], r[1]))

    def conflicts(self) -> dict[str, Counter]:
        """Keys seen with more than one general template, with the count of each."""
        out: dict[str, Counter] = {}
        for key, seen in self._by_key.items():
            counts = Counter(o.template for o in seen if o.general and not o.conditions)
            if len(counts) > 1:
                out[key] = counts
        return out

    def render(self, top: int = 20, examples: bool = True) -> str:
        """Counts, the `top` correspondences with an example each, and the conflicts."""
        rows = [(key, t, n, seen) for key, t, n, seen in self.correspondences()]
        pairs = {(o.source_id, o.target_id) for o in self.observations}
        conflicts = self.conflicts()
        lines = [f"learned API map: {len(self.observations)} aligned sites from {len(pairs)} method pairs; "
                 f"{len(rows)} correspondences over {len({r[3][0].key for r in rows})} Java keys "
                 f"({sum(1 for r in rows if r[3][0].key not in self.mapped)} for the JDK or removed helpers); "
                 f"{len(conflicts)} keys in conflict"]
        for title, chosen in (("JDK calls and callees with no C# counterpart:", [r for r in rows if r[3][0].key not in self.mapped]),
                              ("calls of paired callees (the mapping's renames):", [r for r in rows if r[3][0].key in self.mapped])):
            lines.append(title)
            for key, template, count, seen in chosen[:top]:
                lines.append(f"  {count:5}  {key}  ->  {template}")
                if examples:
                    lines.append(f"         e.g. {_short(seen[0].java)}  =>  {_short(seen[0].cs)}")
        if conflicts:
            lines.append("conflicts (key: template count, ...):")
            for key in sorted(conflicts, key=lambda k: -sum(conflicts[k].values()))[:top]:
                alts = ", ".join(f"{t} {c}" for t, c in conflicts[key].most_common(4))
                lines.append(f"  {key}: {alts}")
        return "\n".join(lines)


_STATIC_CALL = re.compile(r"^[A-Za-z_][\w.]*\((.*)\)$")


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _words(name: str) -> set[str]:
    stripped = re.sub(r"^(get|set|is)(?=[A-Z])", "", name)
    return {w.lower() for w in _WORDS.findall(stripped)}


def name_likeness(java: str, cs: str) -> float:
    """1 for the same name up to case or a get/set/is prefix; else the share of camel-case words in common."""
    if java.lower() == cs.lower():
        return 1.0
    a, b = _words(java), _words(cs)
    if a and a == b:
        return 1.0
    return len(a & b) / len(a | b) if a and b else 0.0


def _place(java: Site, cs: Site) -> dict[int, Part]:
    """Java part (0 receiver, i+1 argument i) -> the C# receiver or argument it reappears as."""
    java_parts = _parts(java)
    free = ([cs.recv] if cs.recv is not None else []) + list(cs.args)
    placed: dict[int, Part] = {}
    for slot, part in java_parts:
        want = part.tokens
        best, best_score = None, 0.0
        for c in free:
            if (c.node == "cast_expression") != (part.node == "cast_expression"):
                continue          # the port converts here: the template would drop the conversion
            have = c.tokens
            if not want or not have:
                score = 1.0 if part.text == c.text else 0.0
            else:
                score = len(want & have) / len(want | have)
            if score > best_score:
                best, best_score = c, score
        if best is not None and (best_score >= 0.99 or (best_score >= 0.6 and len(want) > 1)):
            placed[slot] = best
            free.remove(best)
    return placed


def score(java: Site, cs: Site) -> float:
    """How likely the C# site is the Java site's translation (0..1)."""
    if cs.kind not in _COMPATIBLE[java.kind]:
        return 0.0
    name = name_likeness(java.name, cs.name)
    if java.kind == "field" and name < 0.6 and _words(cs.name) and _words(cs.name) < _words(java.name):
        name = 0.6                # a constant the port shortened (ZXing.Net: HighLevelEncoder.C40_ENCODATION
                                  # is Encodation.C40)
    if java.kind == "new" and cs.kind == "new" and _EXCEPTION.search(java.name) and _EXCEPTION.search(cs.name):
        name = max(name, 0.6)     # an exception the port throws in its own type (HdrHistogram.NET:
                                  # ArrayIndexOutOfBoundsException -> ArgumentOutOfRangeException)
    if java.kind == "call" and name < 0.3:
        return 0.0                # an instance call is written as a member of a like name (size -> Count: the table's)
    parts = _parts(java)
    if not parts:
        return name if name >= 0.5 else 0.0
    placed = _place(java, cs)
    solid = {slot for slot, part in parts if not part.literal}
    if solid and len(solid & placed.keys()) < 0.5 * len(solid):
        return 0.0
    if not solid and name < 0.5:
        return 0.0
    return 0.4 * name + 0.6 * len(placed) / len(parts)


def _parts(java: Site) -> list[tuple[int, Part]]:
    """The Java site's parts by slot: 0 the receiver, i+1 argument i."""
    return ([(0, java.recv)] if java.recv is not None else []) + [(i + 1, a) for i, a in enumerate(java.args)]


def align(java: list[Site], cs: list[Site]) -> list[tuple[Site, Site]]:
    """The monotone alignment of maximal total score (pairs scoring at least THRESHOLD)."""
    n, m = len(java), len(cs)
    if not n or not m:
        return []
    scores = [[score(j, c) for c in cs] for j in java]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for k in range(1, m + 1):
            s = scores[i - 1][k - 1]
            take = best[i - 1][k - 1] + s if s >= THRESHOLD else -1.0
            best[i][k] = max(best[i - 1][k], best[i][k - 1], take)
    out = []
    i, k = n, m
    while i and k:
        s = scores[i - 1][k - 1]
        if s >= THRESHOLD and best[i][k] == best[i - 1][k - 1] + s:
            out.append((java[i - 1], cs[k - 1]))
            i, k = i - 1, k - 1
        elif best[i][k] == best[i - 1][k]:
            i -= 1
        else:
            k -= 1
    return out[::-1]


def template(java: Site, cs: Site, local_names: frozenset[str]) -> tuple[str, bool, tuple[tuple[int, str], ...]]:
    """The C# site with the placed Java parts as placeholders; whether it generalises; literal conditions."""
    text = cs.text
    if _PLACEHOLDER.search(text):
        return normal_text(text), False, ()
    placed = _place(java, cs)
    for slot, part in sorted(placed.items(), key=lambda sp: -sp[1].start):
        text = text[:part.start] + "{" + str(slot) + "}" + text[part.end:]
    general = True
    conditions = []
    if java.recv is not None and 0 not in placed:
        general = False
    if java.statement and not cs.statement:
        general = False   # a call statement aligned with part of a C# condition (NSoup writes jsoup's
        # `Validate.notEmpty(name);` as `if (string.IsNullOrEmpty(name)) throw ..`): no statement of its own
    for i, arg in enumerate(java.args):
        if arg.literal:           # placed or not, the template was seen with this literal only
            conditions.append((i, arg.text))     # (`substring(0, n)` -> `Substring(0, n)`, not for `substring(a, b)`)
        elif i + 1 not in placed:
            general = False
    outside = _IDENT.findall(_strip_literals(_PLACEHOLDER.sub("", text)))
    if any(name in local_names for name in outside):
        general = False
    java_words = {w.lower() for w in _IDENT.findall(java.text)}
    for args in _TYPE_ARGS.findall(_PLACEHOLDER.sub("", text)):
        if any(w.lower() not in java_words for w in _IDENT.findall(args)):
            general = False   # `new ArrayList<>(n)` -> `new List<BlockPair>(n)`: the type argument is the example's
    return normal_text(text), general, tuple(conditions)


def passes_through(template: str, argc: int) -> bool:
    """Whether the template is one static call taking the Java arguments as they are, in order
    (`SupportClass.Fill({1}, {2})`): the literals it was seen with do not condition it."""
    call = _STATIC_CALL.match(template)
    return bool(call) and argc > 0 and call.group(1) == ", ".join("{%d}" % i for i in range(1, argc + 1))


def normal_text(text: str) -> str:
    """C# text without comments, on one line, without spaces inside parentheses or before `.` and `,`."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    text = " ".join(text.split())
    text = re.sub(r"([(\[]) ", r"\1", text)
    return re.sub(r" ([)\].,])", r"\1", text)


def _strip_literals(text: str) -> str:
    return re.sub(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", "\"\"", text)


def observe(java_method: Method, cs_method: Method, fields: dict[str, str], own_class: str,
            declaring: dict[str, str] | None = None) -> list[Observation]:
    """The observations of one aligned method pair. `declaring` ("name/argc" -> class) names the class
    that declares an unqualified callee (a superclass's helper is keyed by that class, so what one
    subclass's port did with `getMassagedText(r)` answers for another subclass)."""
    j_sites, local_names = java_sites(java_method, fields, own_class)
    if declaring:
        for n, j in enumerate(j_sites):
            k = f"{j.name}/{len(j.args)}"
            if j.kind == "static" and j.key == f"{own_class}.{k}" and k in declaring:
                j_sites[n] = replace(j, key=f"{declaring[k]}.{k}")
    pairs = align(j_sites, cs_sites(cs_method))
    out = []
    for j, c in pairs:
        tpl, general, conditions = template(j, c, local_names)
        out.append(Observation(j.key, tpl, general, conditions, java_method.id, cs_method.id,
                               " ".join(j.text.split()), " ".join(c.text.split()), j.arg_type))
    return out
