"""The port's own names for a sync edit: what the port wrote where the builtin translation of the old Java
wrote something else (`repotrans sync`).

    names = learn_port_names(plain_old, port_old)     # the builtin's translation of the old Java, the port's body
    names.apply(translated_new_statement) -> text
    resolver_for_pair(index, mapping, java, target, api=...) -> NameResolver   # what the builtin knows of the port

The two texts are cut into tokens (a dotted name such as `HighLevelEncoder.ASCII_ENCODATION` is one
token, as are literals) and aligned in order (difflib over the token lists). Each short run of tokens the
translation wrote and the port replaced (`ASCII_ENCODATION` -> `Encodation.ASCII`,
`throw NotFoundException.GetNotFoundInstance()` -> `return false`, `System.Text.Encoding.A` -> `Charset.A`)
becomes a rule, kept only when the port wrote it the same way every time it was seen and never kept it
as translated. The rules rewrite what the edit translates anew, never the port's own text.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field

from repotrans.index.model import Method
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.task import TranslationTask
from repotrans.translator.resolver import NameResolver, renamed_members
from repotrans.translator.steps import StepRequest, next_context_call, resolver_for
from repotrans.tools import ToolContext, run_tool

_TOKEN = re.compile(r'@?"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*'
                    r'|\d[\w.]*|&&|\|\||[=!<>+\-*/%&|^]=|\+\+|--|=>|<<|\S')
_COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)
_KEYWORDS = frozenset("""abstract as base bool break byte case catch char checked class const continue decimal
default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit
in int interface internal is lock long namespace new null object operator out override params private protected
public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try
typeof uint ulong unchecked unsafe ushort using var virtual void volatile while""".split())
MAX_RUN = 6               # tokens on either side of a rule
MIN_RATIO = 0.5           # how alike the two texts must be for their differences to be names, not rewrites


def tokens(text: str) -> list[tuple[str, int, int]]:
    """(token, start, end) of C# text outside comments; a dotted name is one token, without its spaces."""
    text = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    return [(re.sub(r"\s+", "", m.group()) if m.group()[:1].isalpha() or m.group()[:1] == "_" else m.group(),
             m.start(), m.end()) for m in _TOKEN.finditer(text)]


_SEPARATORS = frozenset("= == != < > <= >= && || , ; ? : => + - * / % += -= *= /= [ ] { }".split())
_STATEMENTS = ("throw", "return")
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _is_name(token: str) -> bool:
    return (token[:1].isalpha() or token[:1] == "_") and token not in _KEYWORDS


def _words(run) -> set[str]:
    return {w.lower() for t in run if _is_name(t) for w in _WORDS.findall(t)}


def _rule(key: list[str], value: list[str]) -> int | None:
    """How many of the port's tokens a replaced run stands for, or None when it is no name: the run the
    translation wrote names something and holds no operator or separator (those are rewrites, not
    names); the port's text is cut at its first separator (`SHIFT_JIS_CHARSET` -> `SHIFT_JIS_ENCODING` of
    `SHIFT_JIS_ENCODING && SHIFT_JIS_ENCODING != null`); a name must share a word with the port's text
    (`ASCII_ENCODATION` -> `Encodation.ASCII`), a `throw`/`return` may become another jump."""
    if not any(_is_name(t) for t in key) or any(t in _SEPARATORS for t in key):
        return None
    if key[0] in _STATEMENTS:           # a jump stands for the port's jump up to its statement's end
        return next((k for k, t in enumerate(value) if t == ";"), len(value)) if value[0] in _STATEMENTS else None
    cut = next((k for k, t in enumerate(value) if t in _SEPARATORS), len(value))
    if cut == 0 or value[:cut] == ["var"]:
        return None                      # `int x` -> `var x` is the port's style, not a name
    return cut if _words(key) & _words(value[:cut]) else None


@dataclass
class PortNames:
    """Rules: a run of tokens the translation writes -> the port's text for it."""
    rules: dict[tuple[str, ...], str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def apply(self, text: str) -> str:
        """`text` with every run a rule names rewritten as the port writes it (longest run first)."""
        if not self.rules:
            return text
        toks = tokens(text)
        longest = max(len(k) for k in self.rules)
        out, last, i = [], 0, 0
        while i < len(toks):
            for n in range(min(longest, len(toks) - i), 0, -1):
                key = tuple(t for t, _, _ in toks[i:i + n])
                if key in self.rules:
                    out.append(text[last:toks[i][1]] + self.rules[key])
                    last = toks[i + n - 1][2]
                    i += n
                    break
            else:
                i += 1
        return "".join(out) + text[last:]

    def describe(self) -> list[str]:
        return [f"{' '.join(k)} -> {v}" for k, v in sorted(self.rules.items())]


def learn_port_names(plain: str, port: str) -> PortNames:
    """The rules that rewrite `plain` (the builtin's translation of the old Java) into the port's names,
    read from `port` (the port's member as it stood for the old Java)."""
    a, b = tokens(plain), tokens(port)
    ta, tb = [t for t, _, _ in a], [t for t, _, _ in b]
    matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if matcher.ratio() < MIN_RATIO:
        return PortNames()
    seen: dict[tuple[str, ...], set[str]] = {}
    kept: set[tuple[str, ...]] = set()
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for n in range(1, MAX_RUN + 1):          # every run the port kept as translated
                kept.update(tuple(ta[k:k + n]) for k in range(i1, i2 - n + 1))
            continue
        if op != "replace" or not (1 <= i2 - i1 <= MAX_RUN and 1 <= j2 - j1 <= MAX_RUN):
            continue
        key = tuple(ta[i1:i2])
        cut = _rule(ta[i1:i2], tb[j1:j2])
        if cut is None:
            continue
        seen.setdefault(key, set()).add(port[b[j1][1]:b[j1 + cut - 1][2]])
    rules = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and k not in kept}
    return PortNames(rules)


def resolver_for_pair(index, mapping: Mapping, java: Method, target: Method, max_calls: int = 16,
                      api=None) -> NameResolver:
    """The names the builtin policy would know when translating `java` into `target`: the context tools it
    calls (as in its context step, a simple class name two C# types share asked again under the one C#
    lookup finds), run on `index`, the callees the port renamed, and `api`, the port's learned API map
    (without this pair)."""
    ctx = ToolContext(index, mapping, TranslationTask(target.id, java.id))
    req = StepRequest(step="context", java_method=java, target_method=target,
                      renames=renamed_members(mapping.method_matches), api=api)
    for _ in range(max_calls):
        call = json.loads(next_context_call(req))
        if call.get("tool") in (None, "enough"):
            break
        out = run_tool(ctx, call["tool"], call["arguments"])
        req.outputs.append((call["tool"], call["arguments"], out))
        if isinstance(out, dict) and "ambiguous" in str(out.get("error", "")) and out.get("did_you_mean"):
            req.suggested[str(call["arguments"].get("class_name", ""))] = list(out["did_you_mean"])
    return resolver_for(req)
