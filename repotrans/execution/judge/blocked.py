"""A candidate judged on a partly translated tree: failures thrown only inside other members that are
still placeholders say nothing against it. Such a run is `blocked` (one status in the CLI, result.json,
results.sqlite and reports); batch judges it again once the rest is translated.

The evidence is structural, never a message: every failing test's exception was thrown in the frame
of another member (tests run with inlining off, so frames are real) whose body is a placeholder in the
current workspace, identified by its declaring type, IL name and parameter count.
"""
from __future__ import annotations

import re
from dataclasses import replace

from repotrans.execution.capability.checks import MemberRef
from repotrans.verdicts.results import TestResult
from repotrans.verdicts.status import BLOCKED, FAILED_TESTS, PASSED
from repotrans.execution.toolchains.api import clean_frames
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder

GENERIC_ARGS_RE = re.compile(r"`\d+|\[[^\[\]]*\]")
# what a placeholder throws, for the wording of reports (runs.causes); never evidence of blocked
PLACEHOLDER_EXCEPTION = "NotImplementedException"
PLACEHOLDER_TYPES = ("System.NotImplementedException", "System.NotSupportedException")   # what a placeholder throws


def frame_member(frame: str) -> tuple[str, str, int] | None:
    """'Ns.Outer`1+Inner[T].get_P (System.Int32 a) at f.cs:5' -> ('Ns.Outer.Inner', 'get_P', 1)."""
    head, sep, rest = frame.partition(" (")
    if not sep:
        return None
    params = rest.rsplit(")", 1)[0]
    for ctor in ("..ctor", "..cctor"):
        if head.endswith(ctor):
            type_name, name = head[: -len(ctor)], ctor[1:]
            break
    else:
        type_name, _, name = head.rpartition(".")
    while GENERIC_ARGS_RE.search(type_name):
        type_name = GENERIC_ARGS_RE.sub("", type_name)
    depth, count = 0, 1 if params.strip() else 0
    for ch in params:
        depth += ch in "[<"
        depth -= ch in "]>"
        count += ch == "," and depth == 0
    return type_name.replace("+", ".").replace("/", "."), name, count


def blockers(result: TestResult, index, method: Method, java: Method | None = None) -> list[Method]:
    """The placeholder members the failing tests were thrown in, when that holds for every failure
    (and none was thrown in the candidate's own code, nor by an exception type the candidate can have
    declared: a nested type, whose StackTrace it may override); with `java`, the candidate's Java
    original, each the candidate calls itself must be a member the Java original reaches (java_reaches;
    else the candidate is judged on its own: calling an unrelated placeholder on purpose blocks nothing).
    A placeholder's exception wrapped on its way out (a parser rethrowing it as FormatException) is found
    through the runtime's inner-exception trace, and blocks when the port's own code wrapped it, never
    when the candidate did; else []."""
    if result.status not in FAILED_TESTS or not result.failures:
        return []
    if any("+" in t for failure in result.failures for t in exception_chain(failure.message)):
        return []
    if not all(known_exception(index, t) for failure in result.failures for t in exception_chain(failure.message)):
        return []
    by_name: dict[tuple[str, str], list[tuple[MemberRef, Method]]] = {}
    for m in index.all_methods("target"):
        ref = MemberRef.of(m)
        for name in ref.names:
            by_name.setdefault((ref.type_name, name), []).append((ref, m))
    found: dict[str, Method] = {}
    reached: dict[str, bool] = {}          # placeholder id -> java_reaches (one walk per placeholder, not per test)
    for failure in result.failures:
        top = throw_site(failure)
        member = frame_member(top)
        if member is None or "(candidate line" in top:
            return []
        type_name, name, arity = member
        matches = [m for ref, m in by_name.get((type_name, name), []) if ref.arity in (-1, arity)]
        if len(matches) != 1 or matches[0].id == method.id or not is_placeholder(matches[0].body):
            return []
        if java is not None and called_by_candidate(failure, method):
            if matches[0].id not in reached:
                reached[matches[0].id] = java_reaches(index, java, matches[0])
            if not reached[matches[0].id]:
                return []
        if any(in_member(site, method) for site in failure.wrapped_at):
            return []           # the candidate wrapped it: an exception it made is its own

        found[matches[0].id] = matches[0]
    return list(found.values())


CHAIN_PREFIXES = ("SetUp : ", "TearDown : ", "TestFixtureSetUp : ", "TestFixtureTearDown : ")
CALL_RE = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
NEW_RE = re.compile(r"\bnew\s+([A-Za-z_$][\w$.]*)")


def exception_chain(message: str) -> list[str]:
    """The exception types NUnit names in a thrown exception's failure message ('Type : text', then
    '  ----> Inner : text' per inner exception); [] for an assertion's message."""
    first = message.split("\n", 1)[0]
    for prefix in CHAIN_PREFIXES:
        first = first.removeprefix(prefix)
    types = [first.split(" : ", 1)[0].strip()] if not first.lstrip().startswith("Expected") else []
    types += [line.strip()[5:].split(" : ", 1)[0].strip() for line in message.splitlines()[1:]
              if line.strip().startswith("---->")]
    return [t for t in types if t and " " not in t]


FRAMEWORK_NAMESPACES = ("System.", "Microsoft.", "Mono.")


def known_exception(index, type_name: str) -> bool:
    """A framework exception type or one the port declares (in the index): never a type the candidate
    declared itself, whose StackTrace and Message it may override (a top-level one too, by closing its class;
    the checkers keep it out of the framework's namespaces)."""
    if type_name.startswith(FRAMEWORK_NAMESPACES):
        return True
    return bool(index.find_types("target", type_name.replace("+", ".")))


JAVA_DEPTH = 2      # calls deep into its own class a Java original still reaches a placeholder's counterpart


def java_reaches(index, java: Method, callee: Method) -> bool:
    """Whether the Java original calls `callee` (java_calls), itself or through methods of its own class
    that it calls, up to JAVA_DEPTH calls deep: a candidate may inline such a helper or carry it as an
    added member (a helper the port removed), and a placeholder behind it is the Java original's too.
    The walk is the Java source's, never the candidate's text."""
    own: dict[str, list[Method]] = {}
    for m in index.methods(java.type_id):
        own.setdefault(m.name.lower(), []).append(m)
    frontier, seen = [java], {java.id}
    for _ in range(JAVA_DEPTH + 1):
        if any(java_calls(m, callee) for m in frontier):
            return True
        called = [m for f in frontier for name in CALL_RE.findall(f.body or "") for m in own.get(name.lower(), [])]
        frontier = []
        for m in called:
            if m.id not in seen:
                seen.add(m.id)
                frontier.append(m)
    return False


def java_calls(java: Method, callee: Method) -> bool:
    """Whether the Java original's body calls `callee` (a C# member): by name, case aside ("AngleTo" for
    angleTo(), a property X for getX()/setX()/isX()), a constructor by `new Type(`."""
    body = java.body or ""
    if callee.kind == "constructor" or callee.name in ("<init>", ".ctor"):
        type_name = callee.type_id.split(":", 1)[-1].rsplit(".", 1)[-1].split("<", 1)[0].lower()
        return type_name in {n.rsplit(".", 1)[-1].lower() for n in NEW_RE.findall(body)} or "this(" in body \
            or "super(" in body
    calls = {c.lower() for c in CALL_RE.findall(body)}
    name = callee.name.rsplit(".", 1)[-1].lower()
    names = {name, "get" + name, "set" + name, "is" + name} if callee.kind in ("property", "indexer") else {name}
    return bool(names & calls)


def called_by_candidate(failure, method: Method) -> bool:
    """Whether the placeholder's caller (the frame below the throw site) is the candidate's own member."""
    frames = thrown_frames(failure)
    return len(frames) >= 2 and in_member(frames[1], method)


def in_member(frame: str, method: Method) -> bool:
    """Whether a cleaned frame is in the candidate's own member (its lines, or its type and name)."""
    found = frame_member(frame)
    ref = MemberRef.of(method)
    return "(candidate line" in frame or (found is not None and found[0] == ref.type_name and found[1] in ref.names
                                          and ref.arity in (-1, found[2]))      # an overload is another member


def thrown_frames(failure) -> list[str]:
    """The frames of the exception the failure is about, innermost first (throw_site's first)."""
    message = failure.message
    if message.lstrip().startswith("Expected") and "But was:" in message:
        actual = message.partition("But was:")[2].lstrip()
        if actual[1:].split(">", 1)[0] not in PLACEHOLDER_TYPES:
            return []
        thrown = clean_frames(actual)
        if thrown:
            return thrown
    return list(failure.stack)


def throw_site(failure) -> str:
    """The frame the failure's exception was thrown in: an assertion about an exception (NUnit's
    `Throws`: 'But was: <X>' followed by X's stack) names the actual exception's frames in its
    message, taken only when the message is NUnit's constraint text ('Expected: ...', never a thrown
    exception's 'Type : message', whose text the candidate writes) and X is exactly a placeholder's
    exception; otherwise the first frame of the test's own stack (the runtime's, innermost exception
    first), never text from a message."""
    frames = thrown_frames(failure)
    return frames[0] if frames else ""


def judge_blocked(result: TestResult, index, method: Method, java: Method | None = None) -> TestResult:
    """`result`, or the same evidence with status blocked when blockers() finds the placeholders."""
    found = blockers(result, index, method, java)
    if not found:
        return result
    names = [m.id.split(":", 1)[-1] for m in found]
    inside = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return replace(result, status=BLOCKED, behind=[m.id for m in found], reason=f"{len(result.failures)} covering test(s) fail only inside "
                                                  f"members that are not translated yet ({inside})")


def past_untranslated(result: TestResult, method: Method, staying: set[str]) -> TestResult:
    """A blocked verdict whose failing tests all stopped in placeholders that stay placeholders (`staying`:
    target member ids no candidate of this run can fill any more: their tasks ended without a pass, or
    they are no task), judged on the covering tests that could run: passed when at least one of them
    passed and no failing test has the candidate's own member on its stack (it may have led the test
    there); the stopped tests are left out, each named with why (left_out). Anything else is returned as
    it is. Only a batch's last judgements may call it: earlier, a later level may still fill them."""
    if result.status != BLOCKED or not result.behind or not set(result.behind) <= staying:
        return result
    ran = result.tests_run - result.tests_failed
    if ran <= 0 or any(in_member(frame, method) for f in result.failures for frame in [*thrown_frames(f), *f.stack]):
        return result
    names = sorted(b.split(":", 1)[-1] for b in set(result.behind))
    cause = "stops in " + ", ".join(names[:3]) + (", ..." if len(names) > 3 else "") + ", which this run leaves untranslated"
    return replace(result, status=PASSED, failures=[], tests_run=ran, tests_failed=0, behind=[],
                   left_out={**result.left_out, **{f.name: cause for f in result.failures}},
                   reason=f"passed on the {ran} covering test(s) that could run; {len(result.failures)} left out: "
                          f"each {cause}")
