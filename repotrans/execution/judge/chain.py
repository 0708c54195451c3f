"""Whether a failing test stops in untranslated code, read from the runner's own record of the call chain.

Each placeholder of the work copy is compiled as a guard (toolchains.guards) and the runner records the whole
runtime call chain every time one is reached, under the running test (nunit_chain.cs); a TestFailure carries
those chains (`chains`). Nothing here reads an exception, a message or the test framework's report: what the
candidate's process can write is never evidence.

`stops_in_untranslated(failure, index, own)` is the one answer, for a verdict (`blocked`), for the whole-suite
check and for a baseline: the placeholder members the failing test stopped in, or [] when the failure is not
theirs. A failure is the placeholders' when a guard fired in it, every chain that fired runs on the test's own
thread down to the test framework (a chain from another thread cannot say who led there), each chain's first
frame is a placeholder of the index, and no member of `own` (the translations being judged) is on a chain,
except where that member's Java original reaches the placeholder itself (java_reaches). A frame of a type the
index does not know (a type a candidate declared, a helper it added) counts as the translation's own. Where
a translation called a port member that is not its own code and the Java original calls that member too
(a base constructor through super(...)), a placeholder behind it is that member's, not the translation's. Whatever
exception the test then reports, a test in which such a guard fired is the placeholders' (a port that wraps
the placeholder's exception, a test expecting another exception that got the placeholder's).

A translation need not be on a chain to have led a test there: it can hand a placeholder to port code as a
delegate (a helper its Java original calls too, a hook or an event the port calls after it returned, a Lazy, a
deferred query, a function it returns), or return an instance of a port class whose member is one. So each
port member on a chain (the placeholder first) must be one the translation's code cannot have handed on
beyond its Java original: where the code (`Own.code`: its text, declared names aside) names the method other
than by calling it (a method group: a call runs on the code's own frame, which is then on the chain), the
Java original reaches it; where it names the member's class or a class deriving from it (an instance member:
an object it may have made), the Java original names that class too; where it names a port member that holds
the method as a value (a field initialized with the method group, a property returning a deferred query of it:
Members.holders), the Java original names that member too. A method it does not name it cannot
have made a delegate to, nor an object of a class it does not name (reflection is the capability check's).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from repotrans.execution.capability.checks import MemberRef
from repotrans.index.model import Method
from repotrans.index.parse import thread_parser
from repotrans.index.placeholders import is_placeholder
from repotrans.index.typename import simple_name
from repotrans.mapping.test_code import index_test_files
from repotrans.verdicts.results import Chain, TestFailure

GENERIC_ARGS_RE = re.compile(r"`\d+|\[[^\[\]]*\]")
GENERATED_RE = re.compile(r"<([^<>]*)>")      # a compiler-generated name: <Member>b__0, <Member>c__Iterator0, <>c
FRAMEWORK = ("System.", "Microsoft.", "Mono.", "NUnit.", "(wrapper", "Internal.")
JAVA_DEPTH = 2      # calls deep into its own class a Java original still reaches a placeholder's counterpart
CALL_RE = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
NEW_RE = re.compile(r"\bnew\s+([A-Za-z_$][\w$.]*)")
WORD_RE = re.compile(r"[A-Za-z_$][\w$]*")
ESCAPE_RE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")
# return types that cannot carry a delegate (holders)
PLAIN = frozenset("void bool byte sbyte char short ushort int uint long ulong float double decimal string".split())
DECLARING = ("parameter", "type_parameter", "local_function_statement")     # parents whose `name` declares
MEMBER_ACCESS = ("member_access_expression", "member_binding_expression")   # `x.Name`, `x?.Name`


@dataclass(frozen=True)
class Own:
    """A translation whose member may lead a test into a placeholder: the candidate judged, or each passing
    translation in the whole-suite run; `java` its Java original (None: no placeholder is excused through it);
    `code` its text as compiled (what it may hand to port code: referenced_names)."""
    method: Method
    java: Method | None = None
    code: str = ""


def referenced_names(code: str) -> frozenset[str]:
    """The identifiers C# `code` (a member, a body, helpers, leading usings) uses, not those it declares (a
    local, a parameter, a helper's own name): Unicode escapes read as the compiler reads them, '@' dropped.
    A parse that fails counts a token as used: more names, never fewer."""
    return _names(code)[0]


def referenced_types(code: str) -> frozenset[str]:
    """The names among referenced_names that may stand for a type: all but the last name of a member access
    (`text.Length` names no class Length; `new Length(...)`, `Acme.Length.Of(...)`, `(Length)o` do) and the
    names the parser reads into a pointer type (`new StringBuilder(text.Length * times)`)."""
    return _names(code)[1]


def referenced_groups(code: str) -> frozenset[str]:
    """The names among referenced_names used other than as the method a call calls (`Apply(Triple, a)`,
    `Audit = Triple`, `new Lazy<int>(Seed)`: a method group, a delegate made of it; `Triple(a)` is none). A
    method the code calls runs on the caller's frame, which is then on the chain: only a method group can be
    handed on."""
    return _names(code)[2]


@lru_cache(maxsize=256)
def _names(code: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    names: set[str] = set()
    types: set[str] = set()
    groups: set[str] = set()
    stack = [thread_parser("csharp").parse(code.encode("utf-8")).root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "identifier":
            continue
        parent = node.parent
        named = parent is not None and parent.child_by_field_name("name") == node
        if named and (parent.type in DECLARING or parent.type.endswith(("_declaration", "declarator"))):
            continue
        text = node.text.decode("utf-8", "replace")
        text = ESCAPE_RE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text).lstrip("@")
        names.add(text)
        if not (parent is not None and parent.type in MEMBER_ACCESS and parent.children[-1] == node
                and not _qualifies(parent)) and not _in_pointer_type(node):
            types.add(text)
        if not _called(node):
            groups.add(text)
    return frozenset(names), frozenset(types), frozenset(groups)


def _assigned(code: str, name: str) -> set[str]:
    """The last names of what `code`'s assignments assign a value naming `name` other than by calling it to."""
    out: set[str] = set()
    stack = [thread_parser("csharp").parse(code.encode("utf-8")).root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if node.type != "assignment_expression" or left is None or right is None:
            continue
        inner = [right]
        while inner:
            n = inner.pop()
            inner.extend(n.children)
            if n.type == "identifier" and n.text.decode("utf-8", "replace") == name and not _called(n):
                target = left.child_by_field_name("name") if left.type in MEMBER_ACCESS else left
                if target is not None:
                    out.add(target.text.decode("utf-8", "replace"))
                break
    return out


def _called(node) -> bool:
    """Whether an identifier names the method a call calls: the call's function itself, or the last name of a
    member access, a conditional access (`x?.M(...)`) or a generic name that is."""
    while node.parent is not None and (node.parent.type == "generic_name" or node.parent.children[-1] == node and
                                       node.parent.type in (*MEMBER_ACCESS, "conditional_access_expression")):
        node = node.parent
    parent = node.parent
    return parent is not None and parent.type == "invocation_expression" \
        and parent.child_by_field_name("function") == node


def _in_pointer_type(node) -> bool:
    """Whether an identifier is inside a pointer type: what the parser makes of `text.Length * times` as an
    argument (a declaration of a `text.Length*`); a real pointer is the capability check's (unsafe), never a
    type a candidate may name."""
    while node is not None and node.type not in ("pointer_type", "block", "compilation_unit"):
        node = node.parent
    return node is not None and node.type == "pointer_type"


def _qualifies(access) -> bool:
    """Whether a member access is itself qualified further (`Acme.Crate` in `Acme.Crate.Of(n)`): its last name
    may then be a type's."""
    outer = access.parent
    return outer is not None and outer.type in MEMBER_ACCESS and outer.child_by_field_name("expression") == access


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
        name = re.sub(r"\[[^\[\]]*\]$", "", name)       # a generic method's arguments
    while GENERIC_ARGS_RE.search(type_name):
        type_name = GENERIC_ARGS_RE.sub("", type_name)
    depth, count = 0, 1 if params.strip() else 0
    for ch in params:
        depth += ch in "[<"
        depth -= ch in "]>"
        count += ch == "," and depth == 0
    return type_name.replace("+", ".").replace("/", "."), name, count


class Members:
    """The index's members by (declaring type, IL name) and its type names: what a frame stands for."""

    def __init__(self, index):
        self.index = index
        self.by_name: dict[tuple[str, str], list[tuple[MemberRef, Method]]] = {}
        for m in index.all_methods("target"):
            ref = MemberRef.of(m)
            for name in ref.names:
                self.by_name.setdefault((ref.type_name, name), []).append((ref, m))
        self.types = {type_name for type_name, _ in self.by_name}
        self.types |= {re.sub(r"<[^<>]*>", "", t.qualified_name) for t in index.types("target")}
        self.reach: dict[tuple[str, str], bool] = {}
        self._classes: dict[str, frozenset[str]] = {}
        self._holders: dict[str, frozenset[str]] = {}
        self._tests: frozenset[str] | None = None          # the port's test files: no holder of port state

    def member(self, frame: str) -> Method | None:
        """The one index member a frame is in (None: none, or several overloads of its arity)."""
        found = frame_member(frame)
        if found is None:
            return None
        type_name, name, arity = found
        matches = [m for ref, m in self.by_name.get((type_name, name), []) if ref.arity in (-1, arity)]
        return matches[0] if len(matches) == 1 else None

    def known(self, frame: str) -> bool:
        """A frame of the framework, or of a member the index declares, or of code the compiler generated for
        one ('<Name>' in a nested type or method name, Name a member of the declaring type): never a type or
        a member a translation added."""
        if frame.startswith(FRAMEWORK):
            return True
        found = frame_member(frame)
        if found is None:
            return False
        type_name, name, _ = found
        parts = type_name.split(".")
        for n in range(len(parts), 0, -1):
            outer = ".".join(parts[:n])
            if outer not in self.types:
                continue
            rest = parts[n:]
            if not all(self._generated_for(outer, part) for part in rest):
                return False
            made = GENERATED_RE.match(name)
            return bool(rest) or (self._generated_for(outer, name) if made else self._owned(outer, name))
        return False

    def _owned(self, outer: str, name: str) -> bool:
        return (outer, name) in self.by_name or name in (".ctor", ".cctor")

    def _generated_for(self, outer: str, part: str) -> bool:
        made = GENERATED_RE.match(part)
        return made is not None and (made.group(1) == "" or self._owned(outer, made.group(1))
                                     or any((outer, f"{a}_{made.group(1)}") in self.by_name for a in ("get", "set")))

    def classes(self, member: Method) -> frozenset[str]:
        """The simple names of an instance member's class and the classes deriving from it (an object of any
        of them may run it); none for a static member."""
        if "static" in member.modifiers:
            return frozenset()
        if member.type_id not in self._classes:
            own = self.index.type(member.type_id) if hasattr(self.index, "type") else None
            found = {simple_name(member.type_id)}
            if own is not None:
                found |= {t.name for t in self.index.subtypes(own)}
            self._classes[member.type_id] = frozenset(found)
        return self._classes[member.type_id]

    def holders(self, member: Method) -> frozenset[str]:
        """The names of the port members a translation may take `member` from as a value (a delegate, a deferred
        query, a collection of them) without naming it: a field whose initializer names it other than by calling
        it (`Formatter = FormatNumber`), a property or method returning anything but void, a number, a bool, a
        char or a string whose text does, and what a void method or constructor assigns such a value to
        (`Formatter = FormatNumber;` in a static constructor). The port's test code holds no port state."""
        name = member.name.split("<", 1)[0].rsplit(".", 1)[-1]
        if name not in self._holders:
            if self._tests is None:
                self._tests = frozenset(index_test_files(self.index, "target"))
            found: set[str] = set()
            for m in self.index.all_methods("target"):
                text = f"{m.signature}\n{m.body or ''}"
                if m.id == member.id or m.path in self._tests or name not in text or name not in referenced_groups(text):
                    continue
                if (m.return_type or "void").strip() in PLAIN:
                    found |= _assigned(text, name)
                else:
                    found.add(m.name.split("<", 1)[0].rsplit(".", 1)[-1])
            for t in self.index.types("target"):
                if t.path not in self._tests:
                    found.update(f.name for f in self.index.fields(t.id) if f.initializer and name in f.initializer
                                 and name in referenced_groups(f"class C {{ object f = {f.initializer}; }}"))
            self._holders[name] = frozenset(found - {name})
        return self._holders[name]

    def handed_on(self, own: Own, member: Method) -> bool:
        """Whether `own`'s code may have handed `member` (a port member on a chain) to port code beyond its Java
        original: the code names the method other than by calling it (referenced_groups) where the Java
        original does not reach it, names a port member holding it as a value (holders) that the Java original
        does not name, or names its class (or one deriving from it) where the Java original does not (see the
        module doc)."""
        if not own.code:
            return False
        grouped = member.kind == "method" and member.name.split("<", 1)[0].rsplit(".", 1)[-1] in referenced_groups(
            own.code)
        if grouped and (own.java is None or not self.java_reaches(own.java, member)):
            return True
        held = {h.lower() for h in self.holders(member) & referenced_names(own.code)}
        if held and (own.java is None or not held <= {w.lower() for w in WORD_RE.findall(own.java.body or "")}):
            return True
        classes = referenced_types(own.code) & self.classes(member)
        if not classes:
            return False
        if own.java is None:
            return True
        java_words = set(WORD_RE.findall(f"{own.java.signature or ''} {own.java.body or ''}"))
        return not classes <= java_words and not (member.kind == "constructor"
                                                 and self.java_reaches(own.java, member))

    def java_reaches(self, java: Method, callee: Method) -> bool:
        key = (java.id, callee.id)
        if key not in self.reach:
            self.reach[key] = java_reaches(self.index, java, callee)
        return self.reach[key]


def in_member(frame: str, method: Method) -> bool:
    """Whether a frame is in `method`: its lines (the locator marks a candidate's), its type and IL name and
    arity, or code the compiler generated for it (a lambda, an iterator, a local function: '<Name>' in the
    frame's method or nested type name, within its declaring type)."""
    if "(candidate line" in frame:
        return True
    found = frame_member(frame)
    if found is None:
        return False
    ref = MemberRef.of(method)
    type_name, name, arity = found
    if type_name == ref.type_name and name in ref.names and ref.arity in (-1, arity):
        return True
    if type_name != ref.type_name and not type_name.startswith(ref.type_name + "."):
        return False
    generated = type_name[len(ref.type_name):] + "." + name
    plain = method.name.split("<", 1)[0].rsplit(".", 1)[-1]
    return any(f"<{n}>" in generated for n in {*ref.names, plain})


def stops_in_untranslated(failure: TestFailure, index, own: Sequence[Own] = (),
                          members: Members | None = None) -> list[Method]:
    """The placeholders a failing test stopped in, from the runner's record of its call chains ([]: not theirs;
    see the module doc). `members`: an index view to share across calls."""
    if not failure.chains:
        return []
    members = members or Members(index)
    found: dict[str, Method] = {}
    for chain in failure.chains:
        placeholder = _placeholder(chain, members, own)
        if placeholder is False:
            return []
        if placeholder is None:
            continue                # a guard called by no placeholder (a real body's throw): no evidence
        found[placeholder.id] = placeholder
    return list(found.values())


def _placeholder(chain: Chain, members: Members, own: Sequence[Own]) -> Method | None | bool:
    """The placeholder one chain reached (None: the chain is not a placeholder's; False: it is not, or may not
    be, the placeholder's alone: another thread, cut, or a translation on it where its Java original does not
    reach that placeholder)."""
    if not chain.complete or not chain.frames:
        return False
    first = chain.frames[0]
    if any(in_member(first, o.method) for o in own) or not members.known(first):
        return False                # a translation's own code called the guard
    placeholder = members.member(first)
    if placeholder is None or not is_placeholder(placeholder.body):
        return None
    if any(members.handed_on(o, placeholder) for o in own):
        return False                # a translation may have handed it to port code
    for at, frame in enumerate(chain.frames[1:], 1):
        mine = [o for o in own if in_member(frame, o.method)]
        if not mine and not members.known(frame):
            return False            # code the index does not know: a type or helper a translation added
        member = None if mine else members.member(frame)
        if member is not None and any(members.handed_on(o, member) for o in own):
            return False            # a port member on the way a translation may have handed on
        below = chain.frames[at - 1]
        callee = _callee(below, mine, members)
        if any(o.java is None or not (members.java_reaches(o.java, placeholder)
                                      or callee is not None and members.java_reaches(o.java, callee)
                                      or _initializer_of_its_java(below, o, members))
               for o in mine):
            return False
    return placeholder


def _initializer_of_its_java(frame: str, own: Own, members: Members) -> bool:
    """Whether `frame` (the one a translation's frame led to) is the type initializer of a port type its Java
    original's code runs too: the translation's own class, or a class the Java original names. The runtime
    runs a type initializer where a type is first touched (a static field's `new Vector2D(0, 0)` reaching a
    placeholder constructor): the Java class initializes the same way."""
    found = frame_member(frame)
    if found is None or found[1] != ".cctor" or frame.startswith(FRAMEWORK) or not members.known(frame):
        return False
    type_name = found[0]
    if type_name == MemberRef.of(own.method).type_name:
        return True
    simple = type_name.rsplit(".", 1)[-1]
    return re.search(rf"(?<![\w$]){re.escape(simple)}(?![\w$])", own.java.body or "") is not None


def _callee(frame: str, mine: Sequence[Own], members: Members) -> Method | None:
    """The port member a translation's frame called, when the frame below it (nearer the guard) is one the
    index declares and not the translation's own code: a placeholder behind a callee its Java original
    calls too (a base constructor through super(...), a helper it shares) is that callee's, not the
    translation's. A framework frame (a delegate, a LINQ iterator) names no callee: the placeholder itself
    must then be one the Java original reaches."""
    if any(in_member(frame, o.method) for o in mine) or frame.startswith(FRAMEWORK):
        return None
    return members.member(frame)


def on_chain(failure: TestFailure, method: Method) -> bool:
    """Whether `method` (or code it generated) is on any recorded chain of the failure."""
    return any(in_member(frame, method) for chain in failure.chains for frame in chain.frames)


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
