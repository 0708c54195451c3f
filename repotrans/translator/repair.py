"""Rule-based repair of a C# candidate, keyed on compiler diagnostics (mcs / csc codes).

    repair(code, result, resolver) -> str | None                  # the contract
    repair_with_reason(code, result, resolver) -> RepairOutcome   # same, plus why / which rules

Rules (each edits only the candidate line a diagnostic points to, keeping the line count):
  CS0246/CS0103  missing type or name: add the `using` for a known .NET type (candidates may start with
                 usings), or take the closest member of the target class for an unknown name
  CS0117/CS1061  unknown member: closest member of the target type (resolver) or of the .NET type
                 (table); getX()/setX(v) -> property X
  CS1955/CS0118  member is not invocable: drop the call parentheses (a getter became a property)
  CS0266/CS0029  type mismatch: explicit cast (or Parse / ToString between string and numbers)
  CS1501         wrong argument count: match against the target overloads, drop trailing arguments
  CS1503         a numeric cast the parameter does not take (`(byte)x` for a port's `sbyte`): cast to its type;
                 a string local where the port takes an integer: parsed back in the radix it was written in
  CS0026         `this.` in a static member: dropped
  CS0176         static member reached through an instance: qualified with its type
  CS0122         inaccessible member (package-private in Java): the closest other member of its type
  tests          a test expected exception A but B was thrown: construct A instead of B

Where a value, a receiver or an argument stands on the line: cs_line.py.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Callable

from repotrans.verdicts.results import Diagnostic, TestResult
from repotrans.verdicts.status import FAILED_TESTS
from repotrans.translator.cs_line import argument_commas, param_count, receiver_start, value_span
from repotrans.translator.cs_types import jdk_table, pascal
from repotrans.translator.resolver import NameResolver

_MISSING_TYPE = re.compile(r"[`'](?P<name>[\w.]+)' could not be found(?:\. Are you missing `(?P<ns>[\w.]+)' using)?")
_MISSING_NAME = re.compile(r"The name [`'](?P<name>\w+)' does not exist")
_NO_MEMBER = re.compile(r"[`'](?P<type>[^`']+)' does not contain a definition for [`'](?P<member>\w+)'")
_CONVERT = re.compile(r"Cannot implicitly convert type [`'](?P<src>[^`']+)' to [`'](?P<dst>[^`']+)'")
_ARGUMENT = re.compile(r"Argument [`']#(?P<n>\d+)' cannot convert [`'](?P<src>[^`']+)' expression to type [`'](?P<dst>[^`']+)'")
_OVERLOAD = re.compile(r"No overload for method [`'](?P<name>\w+)' takes [`'](?P<n>\d+)' arguments")
_NOT_INVOCABLE = re.compile(r"Non-invocable member [`'](?P<member>[\w.]+)' cannot be used like a method"
                            r"|[`'](?P<member2>[\w.]+)' is a [`'](?:property|field)' but a [`']method group' was expected")
_STATIC_MEMBER = re.compile(r"Static member [`'](?P<owner>[^`'(]+)\.(?P<member>\w+)(?:\([^`']*\))?' cannot be accessed")
_INACCESSIBLE = re.compile(r"[`'](?P<owner>[^`'(]+)\.(?P<member>\w+)(?:\([^`']*\))?' is inaccessible")
_EXCEPTION = re.compile(r"([\w.]*Exception)\b")
PARAM_NAME_FIRST = {"ArgumentOutOfRangeException", "ArgumentNullException"}
_PARSE = {"int": "ToInt32", "long": "ToInt64", "short": "ToInt16", "uint": "ToUInt32", "ulong": "ToUInt64",
          "ushort": "ToUInt16"}
_PARSED = re.compile(r"\bConvert\.ToU?Int(?:16|32|64)\(\w+(?:, \d+)?\)")
NUMERIC = {"int", "long", "short", "byte", "sbyte", "uint", "ulong", "ushort", "float", "double", "decimal", "char"}


@dataclass
class RepairOutcome:
    code: str | None                      # None when no rule applied
    reason: str                           # one line: what was done, or why nothing was
    rules: list[str] = field(default_factory=list)


def repair(code: str, result: TestResult, resolver: NameResolver) -> str | None:
    """The repaired candidate, or None when no rule applies."""
    return repair_with_reason(code, result, resolver).code


def repair_with_reason(code: str, result: TestResult, resolver: NameResolver) -> RepairOutcome:
    """Apply every rule that fits the result (compile diagnostics, or expected-exception test failures)."""
    if result.status in FAILED_TESTS:
        return _exception_types(code, result)
    if result.status != "compile_error":
        return RepairOutcome(None, f"status is {result.status}, no repair rule applies")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if not errors:
        return RepairOutcome(None, "no error diagnostics to act on")
    lines = code.split("\n")
    usings: list[str] = []
    applied: list[str] = []
    skipped: list[str] = []
    for diag in errors:
        rule = RULES.get(diag.code)
        if rule is None:
            skipped.append(f"{diag.code or 'error'}: no rule")
            continue
        if diag.candidate_line is None or not 1 <= diag.candidate_line <= len(lines):
            skipped.append(f"{diag.code}: not in the candidate")
            continue
        note = rule(lines, diag, resolver, usings)
        (applied if note.startswith("+") else skipped).append(f"{diag.code}: {note.lstrip('+')}")
    if not applied:
        return RepairOutcome(None, "; ".join(skipped) or "no rule applied")
    new_code = "\n".join(usings + lines) if usings else "\n".join(lines)
    if new_code == code:
        return RepairOutcome(None, "rules matched but changed nothing")
    return RepairOutcome(new_code, "; ".join(applied), applied)


def _exception_types(code: str, result: TestResult) -> RepairOutcome:
    """A test expected exception A but the candidate threw B: throw A where B is constructed."""
    swaps: dict[str, str] = {}
    for failure in result.failures:
        wanted = _EXCEPTION.search(failure.expected or "")
        thrown = _EXCEPTION.search(failure.actual or "")
        if wanted and thrown and wanted.group(1) != thrown.group(1):
            swaps.setdefault(thrown.group(1).rsplit(".", 1)[-1], wanted.group(1).rsplit(".", 1)[-1])
    if not swaps:
        return RepairOutcome(None, f"{result.status}: no expected-exception mismatch to act on")
    applied = []
    for thrown, wanted in swaps.items():
        new_code = _swap_constructor(code, thrown, wanted)
        if new_code != code:
            code = new_code
            applied.append(f"exception: throw {wanted} instead of {thrown}")
    if not applied:
        return RepairOutcome(None, f"{result.status}: the thrown exception is not constructed in the candidate")
    return RepairOutcome(code, "; ".join(applied), applied)


def _swap_constructor(code: str, thrown: str, wanted: str) -> str:
    """`new Thrown(msg)` -> `new Wanted(msg)`; (null, msg) for the .NET types whose first string is a name."""
    out, pos = [], 0
    for match in re.finditer(rf"\bnew\s+(?:System\.)?{re.escape(thrown)}\s*\(", code):
        close, commas = argument_commas(code, match.end() - 1)
        if close is None:
            continue
        args = code[match.end():close]
        if wanted in PARAM_NAME_FIRST and args.strip() and not commas:
            args = "null, " + args
        out.append(code[pos:match.start()] + f"new {wanted}({args}")
        pos = close
    out.append(code[pos:])
    return "".join(out)


# ---- rules: each edits `lines` in place (or adds to `usings`) and returns a note ("+..." = applied) ----

def _missing_type(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    match = _MISSING_TYPE.search(diag.message) or _MISSING_NAME.search(diag.message)
    if match is None:
        return "message not understood"
    name = match.group("name")
    namespace = match.groupdict().get("ns") or jdk_table()["namespaces"].get(name.split(".")[0])
    if namespace:
        directive = f"using {namespace};"
        if directive not in usings and directive not in lines:
            usings.append(directive)
        return f"+added {directive}"
    return _rename(lines, diag, name, resolver.members(None), resolver)


def _unknown_member(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    match = _NO_MEMBER.search(diag.message)
    if match is None:
        return "message not understood"
    type_name, member = _simple(match.group("type")), match.group("member")
    line = lines[diag.candidate_line - 1]
    prop = _property_for(member, type_name, resolver)
    if prop is not None:
        getter = re.compile(rf"\.{member}\(\s*\)")
        setter = re.compile(rf"\.{member}\((?P<arg>[^;]*)\)\s*;")
        if getter.search(line):
            lines[diag.candidate_line - 1] = getter.sub(f".{prop}", line, count=1)
            return f"+{member}() -> property {prop}"
        if setter.search(line):
            lines[diag.candidate_line - 1] = setter.sub(lambda m: f".{prop} = {m.group('arg')};", line, count=1)
            return f"+{member}(v) -> property {prop} = v"
    known = _members_of(type_name, resolver)
    own = next((m for m in resolver.members(None) if m.lower() == member.lower()), None)
    if own is not None and diag.code == "CS0117" and not _closest(member, [c for c in known if c != member]):
        # a JDK static (Integer.numberOfTrailingZeros) the port wrote as a helper of the class itself
        fixed = re.sub(rf"(?<![\w.])[\w.]+\.{member}\b", own, line, count=1)
        if fixed != line:
            lines[diag.candidate_line - 1] = fixed
            return f"+{type_name}.{member} -> {own} (a member of the class)"
    getter = re.match(r"^Get([A-Z]\w*)$", member)
    if not known and getter and re.search(rf"\.{member}\(\s*\)", line):
        # nothing known about the type: follow the convention that Java getters are C# properties
        lines[diag.candidate_line - 1] = re.sub(rf"\.{member}\(\s*\)", f".{getter.group(1)}", line, count=1)
        return f"+{member}() -> property {getter.group(1)} (convention, {type_name} not in context)"
    return _rename(lines, diag, member, known, resolver, dotted=True)


def _not_invocable(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    match = _NOT_INVOCABLE.search(diag.message)
    if match is None:
        return "message not understood"
    member = (match.group("member") or match.group("member2")).rsplit(".", 1)[-1]
    line = lines[diag.candidate_line - 1]
    fixed = re.sub(rf"\b{member}\(\s*\)", member, line, count=1)
    if fixed == line:
        return f"no empty call of {member} on the line"
    lines[diag.candidate_line - 1] = fixed
    return f"+{member}() -> {member}"


def _convert(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    match = _CONVERT.search(diag.message)
    if match is None:
        return "message not understood"
    src, dst = _simple(match.group("src")), _simple(match.group("dst"))
    line = lines[diag.candidate_line - 1]
    span = value_span(line)
    if span is None:
        return "no assignment or return on the line"
    start, end = span
    expr = line[start:end].strip()
    if src == "string" and dst in NUMERIC:
        new, how = f"{dst}.Parse({expr})", "parse"
    elif dst == "string":
        new, how = f"Convert.ToString({expr})", "to string"
    elif "<" in match.group("src") + match.group("dst"):
        return f"no cast between generic types {src} and {dst} (variance)"
    elif diag.code == "CS0266" or (src in NUMERIC and dst in NUMERIC):
        new, how = f"({dst})({expr})", "cast"
    else:
        return f"no conversion from {src} to {dst}"
    compound = re.match(r"^(\s*)([\w.\[\]]+)\s*([-+*/%&|^]|<<|>>)=\s*$", line[:start])
    if compound:
        indent, target, op = compound.groups()
        lines[diag.candidate_line - 1] = f"{indent}{target} = ({dst})({target} {op} {expr}){line[end:]}"
    else:
        lines[diag.candidate_line - 1] = line[:start] + (" " if line[start - 1:start] != " " else "") + new + line[end:]
    return f"+{how} {src} -> {dst}"


def _argument_cast(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    """CS1503: an argument cast to a numeric type the parameter does not take (Java's signed `byte` written
    `(byte)x` where the port's parameter is `sbyte`): the line's casts to that type become casts to the
    parameter's type (explicit, so the value is truncated as Java's cast does)."""
    match = _ARGUMENT.search(diag.message)
    if match is None:
        return "message not understood"
    src, dst = match.group("src"), match.group("dst")
    if src == "string" and dst in _PARSE:
        return _parsed_argument(lines, diag, dst)
    if src not in NUMERIC or dst not in NUMERIC:
        return f"no cast between {src} and {dst}"
    line = lines[diag.candidate_line - 1]
    fixed = re.sub(rf"\(\s*{src}\s*\)(?=\s*[\w(])", f"({dst})", line)
    if fixed == line:
        return f"no cast to {src} on the line"
    lines[diag.candidate_line - 1] = fixed
    first = re.search(rf"\b(\w+)\s*\(\s*\(\s*{dst}\s*\)", fixed) if match.group("n") == "1" else None
    if first is None:
        return f"+argument cast ({src}) -> ({dst})"
    same = re.compile(rf"\b{first.group(1)}(\s*\(\s*)\(\s*{src}\s*\)")    # the same call's first argument
    more = [i for i, text in enumerate(lines) if same.search(text)]
    for i in more:                      # its other lines fail alike (a shortened diagnostics list may omit them)
        lines[i] = same.sub(rf"{first.group(1)}\1({dst})", lines[i])
    return f"+argument cast ({src}) -> ({dst})" + (f", and in {len(more)} more call(s) of {first.group(1)}" if more else "")


def _parsed_argument(lines: list[str], diag: Diagnostic, dst: str) -> str:
    """CS1503, a string where the port takes an integer (pinyin4j keys its table by a code point's hex
    String, Pinyin4j.Net by the int): the one string local the line passes whole is parsed back, in the
    radix the candidate wrote it in (`Convert.ToString(x, 16)`)."""
    index = diag.candidate_line - 1
    declared: dict[str, str] = {}
    for earlier in lines[:index]:
        local = re.match(r"\s*(?:string|String)\s+(\w+)\s*=\s*(.*);\s*$", earlier)
        if local:
            radix = re.search(r"\bConvert\.ToString\(.*,\s*(2|8|16)\s*\)", local.group(2))
            declared[local.group(1)] = f", {radix.group(1)}" if radix else ""
    line = lines[index]
    bare = _PARSED.sub(lambda m: "0" * len(m.group(0)), line)      # what an earlier diagnostic parsed already
    uses = {name: [m.span(1) for m in re.finditer(rf"(?<=[(\[,])\s*({name})\s*(?=[)\],])", bare)]
            for name in declared}
    passed = [name for name, spans in uses.items() if spans]
    if len(passed) != 1:
        return f"{len(passed)} string locals passed whole on the line"
    name = passed[0]
    for start, end in reversed(uses[name]):
        line = f"{line[:start]}Convert.{_PARSE[dst]}({name}{declared[name]}){line[end:]}"
    lines[index] = line
    return f"+string argument {name} parsed as {dst}"


def _overload(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    match = _OVERLOAD.search(diag.message)
    if match is None:
        return "message not understood"
    name, given = match.group("name"), int(match.group("n"))
    counts = sorted({param_count(sig) for sig in _signatures(name, resolver)})
    fewer = [c for c in counts if c < given]
    if not fewer:
        return f"no overload of {name} with fewer than {given} parameters is known (found {counts or 'none'})"
    want = fewer[-1]
    header = next((text for text in lines if text.strip() and not text.lstrip().startswith(("//", "[", "/*", "*"))),
                  "")
    if re.search(rf"\b{name}\s*\(", header) and param_count(header.split("{")[0]) == want \
            and diag.candidate_line > 1:
        return f"dropping arguments would make {name} call itself (the port has no {given}-argument {name})"
    line = lines[diag.candidate_line - 1]
    call = re.search(rf"\b{name}\s*\(", line)
    if call is None:
        return f"call of {name} not on the line"
    open_at = call.end() - 1
    close_at, commas = argument_commas(line, open_at)
    if close_at is None or len(commas) + 1 != given:
        return f"could not split the arguments of {name}"
    cut = commas[want - 1] if want > 0 else open_at + 1
    lines[diag.candidate_line - 1] = line[:cut] + line[close_at:]
    return f"+{name}: {given} -> {want} arguments (target overload)"


def _this_in_static(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    """CS0026: `this.` in a static member: the member it names is static too (or the outer class's)."""
    line = lines[diag.candidate_line - 1]
    fixed = re.sub(r"(?<![\w.])this\.(?=[A-Za-z_])", "", line)
    if fixed == line:
        return "`this` is used as a value, not as a qualifier"
    lines[diag.candidate_line - 1] = fixed
    return "+dropped `this.` in a static member"


def _static_via_instance(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    """CS0176: a static member reached through an instance: qualify it with its type instead."""
    match = _STATIC_MEMBER.search(diag.message)
    if match is None:
        return "message not understood"
    owner, member = match.group("owner"), match.group("member")
    type_name = _simple(owner) if "<" in owner else owner.rsplit(".", 1)[-1]
    line = lines[diag.candidate_line - 1]
    for dot in (m.start() for m in re.finditer(rf"\.{re.escape(member)}\b", line)):
        start = receiver_start(line, dot)
        if start is None or start == dot or line[start:dot] == owner:
            continue
        # `Array.Copy` where the class has a member named Array: the type's full name
        qualified = owner if line[start:dot] == type_name and "<" not in owner else type_name
        if qualified == line[start:dot]:
            continue
        lines[diag.candidate_line - 1] = line[:start] + qualified + line[dot:]
        return f"+{line[start:dot]}.{member} -> {qualified}.{member} (static)"
    return f"no instance access of {member} on the line"


def _inaccessible(lines: list[str], diag: Diagnostic, resolver: NameResolver, usings: list[str]) -> str:
    """CS0122: a member the port made private (a Java package-private field): the closest other member
    of its type, usually the property that exposes it."""
    match = _INACCESSIBLE.search(diag.message)
    if match is None:
        return "message not understood"
    owner, member = match.group("owner"), match.group("member")
    known = [m for m in _members_of(_simple(owner), resolver) if m != member]
    if not known:
        return f"nothing known about {_simple(owner)} besides {member}"
    return _rename(lines, diag, member, known, resolver, dotted=True)


RULES: dict[str, Callable[[list[str], Diagnostic, NameResolver, list[str]], str]] = {
    "CS0246": _missing_type, "CS0103": _missing_type, "CS0117": _unknown_member, "CS1061": _unknown_member,
    "CS1955": _not_invocable, "CS0118": _not_invocable, "CS0266": _convert, "CS0029": _convert, "CS1501": _overload,
    "CS1503": _argument_cast, "CS0026": _this_in_static, "CS0176": _static_via_instance, "CS0122": _inaccessible,
}


# ---- helpers ---------------------------------------------------------------------------------

def _simple(type_name: str) -> str:
    """`System.Collections.Generic.List<int>` -> `List`; `System.String` -> `string`."""
    base = type_name.split("<", 1)[0].rsplit(".", 1)[-1]
    return {"String": "string", "Int32": "int", "Int64": "long", "Char": "char", "Double": "double",
            "Boolean": "bool", "Object": "object"}.get(base, base)


def _members_of(type_name: str, resolver: NameResolver) -> list[str]:
    known = jdk_table()["dotnet_members"].get(type_name)
    if known is not None:
        return list(known)
    owner = getattr(resolver, "java_name_of", lambda name: name)(type_name)
    return resolver.members(owner)


def _property_for(member: str, type_name: str, resolver: NameResolver) -> str | None:
    match = re.match(r"^(Get|get|Is|is|Set|set)([A-Z]\w*)$", member)
    if match is None:
        return None
    wanted = match.group(2)
    return next((m for m in _members_of(type_name, resolver) if m.lower() == wanted.lower()), None)


def _closest(name: str, candidates: list[str]) -> str | None:
    alias = jdk_table()["member_aliases"].get(name)
    if alias in candidates:
        return alias
    lowered = {c.lower(): c for c in candidates}
    if name.lower() in lowered:
        return lowered[name.lower()]
    if pascal(name) in candidates:
        return pascal(name)
    # a near spelling is the same name only when one's words are within the other's: UNWANTED_END_CHAR_PATTERN
    # is no misspelled VALID_START_CHAR_PATTERN (libphonenumber-csharp has no counterpart of the first; the
    # swap compiled and matched the wrong characters)
    hits = [h for h in difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
            if _words(h) <= _words(name) or _words(name) <= _words(h)]
    return hits[0] if hits else None


def _words(name: str) -> frozenset[str]:
    """A name's words, whatever its case convention (`UNWANTED_END_CHARS`, `getEndChars`, `EndChars`)."""
    spaced = name.replace("_", " ") if "_" in name else re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return frozenset(w.lower() for w in spaced.split())


def _rename(lines: list[str], diag: Diagnostic, name: str, candidates: list[str], resolver: NameResolver,
            dotted: bool = False) -> str:
    best = _closest(name, [c for c in candidates if c != name])
    if best is None:
        return f"no member close to {name} (knew {len(candidates)})"
    line = lines[diag.candidate_line - 1]
    pattern = rf"\.{name}\b" if dotted else rf"(?<![\w.]){name}\b"
    fixed = re.sub(pattern, ("." if dotted else "") + best, line, count=1)
    if fixed == line:
        return f"{name} not found on the line"
    lines[diag.candidate_line - 1] = fixed
    return f"+{name} -> {best}"


def _signatures(name: str, resolver: NameResolver) -> list[str]:
    found = list(resolver.signatures(None, name))
    types = getattr(resolver, "types", {})
    for owner in types:
        found += [s for s in resolver.signatures(owner, name) if s not in found]
    return found
